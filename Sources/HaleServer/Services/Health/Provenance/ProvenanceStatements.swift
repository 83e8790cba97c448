import Foundation
import JWTKit

/// Signed provenance statements: per local day, which of an account's totals came from which attested app instance
/// and version, and the writes that proved them, signed with Hale's provenance key (`ProvenanceKeys`).
public struct ProvenanceStatements: Sendable {
    let store: any HealthProvenanceStore
    let keys: ProvenanceKeys
    let issuer: String
    let clock: HaleClock

    /// The JOSE `typ` of a statement: never `at+jwt`, so a statement can never pass as an access token.
    public static let type = "hale-provenance+jwt"
    /// The most days one request covers.
    public static let maximumDays = 31
    /// The most attested samples one request reads.
    public static let maximumSamples = 200_000
    /// The most writes a source lists; `writeCount` says how many there were.
    public static let maximumWrites = 100

    /// A day's statement, signed.
    public struct Signed: Sendable, Equatable {
        /// The local day.
        public let day: LocalDate
        /// The compact JWS.
        public let statement: String
        /// What it says.
        public let claims: ProvenanceStatement
    }

    /// The account's statements for `first … last`, one per day that has attested data, oldest first.
    public func statements(of account: AccountID, from first: LocalDate, through last: LocalDate) async throws
        -> [Signed]
    {
        let unsigned = try await claims(of: account, from: first, through: last)
        let (kid, collection) = try await keys.signingKey()
        var header = JWTHeader()
        header.typ = Self.type
        var signed: [Signed] = []
        for (day, claims) in unsigned {
            let token = try await collection.sign(claims, kid: JWKIdentifier(string: kid), header: header)
            signed.append(Signed(day: day, statement: token, claims: claims))
        }
        return signed
    }

    /// What the statements for `first … last` say, unsigned: for a reader that needs only which days hold attested
    /// data, or their sources.
    func claims(of account: AccountID, from first: LocalDate, through last: LocalDate) async throws
        -> [(day: LocalDate, claims: ProvenanceStatement)]
    {
        guard first <= last else { throw InvalidInput("endDate", .notBefore("startDate")) }
        guard last.dayNumber - first.dayNumber < Self.maximumDays else {
            throw InvalidInput("endDate", .described("A provenance request covers at most \(Self.maximumDays) days"))
        }
        // A sample's local day can be 18 hours from its UTC day, either way.
        let start = Date(timeIntervalSince1970: Double(first.dayNumber * 86_400 - 18 * 3_600))
        let end = Date(timeIntervalSince1970: Double((last.dayNumber + 1) * 86_400 + 18 * 3_600))
        let samples = try await store.attestedSamples(
            of: account, overlapping: start, end, limit: Self.maximumSamples + 1)
        guard samples.count <= Self.maximumSamples else {
            throw HaleError(
                .payloadTooLarge, .tooLarge,
                message: "These days hold more than \(Self.maximumSamples) attested samples: ask for fewer days.")
        }
        let now = clock.now()
        return Self.sources(of: samples, from: first, through: last).map { day, sources in
            let claims = ProvenanceStatement(
                iss: .init(value: issuer), sub: .init(value: account.description), iat: .init(value: now),
                day: day.description, sources: sources)
            return (day, claims)
        }
    }

    /// Every statement the account has: one for each day with attested data, from its earliest attested sample to
    /// tomorrow, in ranges of `maximumDays`. What the health export includes with `provenance=true`.
    public func allStatements(of account: AccountID) async throws -> [Signed] {
        guard let earliest = try await store.earliestAttestedStart(of: account) else { return [] }
        // A local day may begin 14 hours before its UTC day.
        var first = LocalDate(at: earliest.addingTimeInterval(-14 * 3_600), in: .gmt)
        let last = LocalDate(at: clock.now(), in: .gmt).adding(days: 1)
        var signed: [Signed] = []
        while first <= last {
            let end = min(last, first.adding(days: Self.maximumDays - 1))
            signed += try await statements(of: account, from: first, through: end)
            first = end.adding(days: 1)
        }
        return signed
    }

    /// Each day's sources, in day order: the samples grouped by the app instance whose writes brought them, each
    /// group rolled up alone.
    static func sources(of samples: [ProvenancedSample], from first: LocalDate, through last: LocalDate)
        -> [(LocalDate, [ProvenanceStatement.Source])]
    {
        let byInstance = Dictionary(grouping: samples) { InstanceKey($0.proof) }
        var days: [LocalDate: [ProvenanceStatement.Source]] = [:]
        for (instance, group) in byInstance.sorted(by: { $0.key < $1.key }) {
            let rollups = DailyRollup.rollups(of: group.map(\.sample))
            let byDay = Dictionary(grouping: rollups, by: \.day)
            var counted: [LocalDate: (samples: Int, writes: [UUID: HealthWriteProof])] = [:]
            for entry in group {
                for day in Set(entry.sample.localDayValues().map(\.day)) {
                    counted[day, default: (0, [:])].samples += 1
                    counted[day, default: (0, [:])].writes[entry.proof.id] = entry.proof
                }
            }
            for (day, dayRollups) in byDay where day >= first && day <= last {
                let (sampleCount, writes) = counted[day] ?? (0, [:])
                let ordered = writes.values.sorted {
                    ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString)
                }
                days[day, default: []].append(
                    ProvenanceStatement.Source(
                        platform: instance.platform, keyId: instance.keyId, appId: instance.appId,
                        appVersion: instance.appVersion,
                        totals: dayRollups.map {
                            .init(type: $0.type.rawValue, value: $0.value, unit: $0.type.canonicalUnit.rawValue)
                        },
                        samples: sampleCount,
                        writes: ordered.prefix(maximumWrites).map {
                            .init(
                                nonce: $0.nonce, counter: $0.counter, bodySha256: $0.bodySha256,
                                at: ISO8601.string($0.createdAt))
                        }, writeCount: ordered.count))
            }
        }
        return days.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// What tells one attested app instance from another.
    struct InstanceKey: Hashable, Comparable {
        let platform: String
        let keyId: String?
        let appId: String
        let appVersion: String?

        init(_ proof: HealthWriteProof) {
            platform = proof.platform
            keyId = proof.keyId
            appId = proof.appId
            appVersion = proof.appVersion
        }

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.platform, lhs.appId, lhs.keyId ?? "", lhs.appVersion ?? "")
                < (rhs.platform, rhs.appId, rhs.keyId ?? "", rhs.appVersion ?? "")
        }
    }
}
