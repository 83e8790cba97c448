import Foundation

/// Seed 001's health data: attestation nonces, and statistics and today's totals from the attested daily totals and
/// the synced daily totals together.
///
/// A day can have both: the app of seed 001 submitted it, and HealthKit or Health Connect synced it. Both tell the
/// same person's same day, so adding them would count it twice; each measure takes the larger of the two.
public struct HealthData: Sendable {
    /// A statistics answer.
    public struct Statistics: Sendable, Equatable {
        /// The first and last day asked for.
        public let start: LocalDate
        /// The last day.
        public let end: LocalDate
        /// Every group in the range, in order.
        public let items: [HealthStatistics.Item]
        /// The whole range.
        public let summary: HealthTotals
    }

    /// Today's totals in the account's time zone.
    public struct Today: Sendable, Equatable {
        /// The local day.
        public let day: LocalDate
        /// Its totals, all sources added up.
        public let totals: HealthTotals
        /// When its data last changed; nil without data.
        public let lastUpdated: Date?
    }

    let repository: any HealthRepository
    let synced: any HealthRollupStore
    /// Consent, which seed 001's attested totals follow too.
    let consents: HealthConsents
    let challenges: ServerChallenges
    let attestation: DeviceAttestation
    let plausibility: HealthPlausibility
    let requiredAttestation: RequiredAttestation
    let clock: HaleClock

    static let nonceKind = "health_attestation_nonce"
    static let nonceLifetime: Duration = .seconds(300)

    /// A single-use nonce for the account's next attested submission, valid five minutes.
    public func issueNonce(for account: AccountID) async throws -> ServerChallenges.Issued {
        try await challenges.issue(
            kind: Self.nonceKind, binding: .init(accountId: account), lifetime: Self.nonceLifetime)
    }

    /// Totals over `startDate` … `endDate` (each default today in `timeZone`) grouped by `period`.
    public func statistics(
        of account: AccountID, startDate: LocalDate?, endDate: LocalDate?, period: HealthStatistics.Period = .day,
        in timeZone: TimeZone
    ) async throws -> Statistics {
        let today = LocalDate(at: clock.now(), in: timeZone)
        let start = startDate ?? today
        let end = endDate ?? today
        guard start <= end else { throw InvalidInput("startDate", .notAfter("endDate")) }
        guard end.dayNumber - start.dayNumber < HealthStatistics.maximumDays else {
            throw InvalidInput(
                "startDate", .described("The date range must not be longer than \(HealthStatistics.maximumDays) days"))
        }
        let daily = try await combinedTotals(of: account, from: start, through: end).mapValues(\.totals)
        let (items, summary) = HealthStatistics.aggregate(daily, from: start, through: end, by: period)
        return Statistics(start: start, end: end, items: items, summary: summary)
    }

    /// Imports days of totals without attestation, in one transaction: for operators moving data in, and for
    /// `hale bench health-stats`. Never reachable over HTTP.
    public func importDailyTotals(_ totals: [HealthDailyTotal]) async throws {
        try await repository.saveAll(totals)
    }

    /// Today's totals in `timeZone`.
    public func today(of account: AccountID, in timeZone: TimeZone) async throws -> Today {
        let day = LocalDate(at: clock.now(), in: timeZone)
        let combined = try await combinedTotals(of: account, from: day, through: day)[day]
        let attestedUpdate = try await repository.lastUpdated(of: account, on: day)
        let lastUpdated = [attestedUpdate, combined?.syncedUpdate].compactMap { $0 }.max()
        return Today(day: day, totals: combined?.totals ?? .zero, lastUpdated: lastUpdated)
    }

    /// Each day's attested and synced totals, measure by measure the larger.
    private func combinedTotals(of account: AccountID, from start: LocalDate, through end: LocalDate) async throws
        -> [LocalDate: (totals: HealthTotals, syncedUpdate: Date?)]
    {
        var days = try await repository.dailyTotals(of: account, from: start, through: end)
            .mapValues { (totals: $0, syncedUpdate: Date?.none) }
        for (day, synced) in try await synced.syncedTotals(of: account, from: start, through: end) {
            let attested = days[day]?.totals ?? .zero
            days[day] = (HealthTotals.larger(attested, synced.totals), synced.updatedAt)
        }
        return days
    }

    /// The time zone of the account's days: the one the client `sent` (a request's `X-Timezone`) if any, which is
    /// then stored as the account's; else the one stored, the last any client of the account sent; else UTC.
    public func timeZone(of account: AccountID, sent: TimeZone?) async throws -> TimeZone {
        let stored = try await repository.timeZone(of: account)
        if let zone = sent {
            // The zone any client of the account sent last is the account's: seed 000's iOS app sends instants in
            // UTC and no zone, and its days are then the person's, as another client or the page last said.
            if stored != zone.identifier { try await repository.setTimeZone(zone.identifier, of: account) }
            return zone
        }
        return stored.flatMap(Self.ianaZone) ?? TimeZone(identifier: "UTC")!
    }

    /// The zone an IANA name such as `Europe/Berlin` names, or nil for anything else: a name of at most 64 ASCII
    /// letters, digits and `/_+-` that Foundation knows.
    public static func ianaZone(_ name: String) -> TimeZone? {
        guard name.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/_+-".contains($0)) })
        else {
            return nil
        }
        return TimeZone(identifier: name)
    }
}
