import Foundation

extension HealthSync {
    /// A sample that passed every check, ready to store, and its place in the batch.
    struct Prepared: Sendable {
        let index: Int
        var stored: StoredHealthSample

        /// The same sample, brought by the attested write `proof` proved.
        func proved(by proof: UUID) -> Prepared {
            var copy = self
            copy.stored.proofId = proof
            return copy
        }
    }

    /// The batch's samples as rows to store, and the ones refused with their reasons. A large batch is checked in
    /// two halves at once: the checks (dates, units, hashes) are most of a sync's own work, and a second core is
    /// otherwise idle while the first does them.
    static func prepareConcurrently(
        _ samples: [HealthSyncSample], provider: HealthProvider, account: AccountID, zone: TimeZone,
        plausibility: HealthPlausibility, now: Date
    ) async -> (prepared: [Prepared], rejected: [HealthSyncResult.Rejection]) {
        guard samples.count >= 2_000 else {
            return prepare(
                samples[...], provider: provider, account: account, zone: zone, plausibility: plausibility, now: now)
        }
        let middle = samples.count / 2
        // On a thread of its own (`ThreadWork`): a child task would run on this event loop, after this half.
        let first = ThreadWork {
            prepare(
                samples[..<middle], provider: provider, account: account, zone: zone, plausibility: plausibility,
                now: now)
        }
        let second = prepare(
            samples[middle...], provider: provider, account: account, zone: zone, plausibility: plausibility, now: now)
        let head = await first.value
        return (head.prepared + second.prepared, head.rejected + second.rejected)
    }

    /// The samples as rows to store, and the ones refused with their reasons, by their index in the batch.
    static func prepare(
        _ samples: ArraySlice<HealthSyncSample>, provider: HealthProvider, account: AccountID, zone: TimeZone,
        plausibility: HealthPlausibility, now: Date
    ) -> (prepared: [Prepared], rejected: [HealthSyncResult.Rejection]) {
        var prepared: [Prepared] = []
        prepared.reserveCapacity(samples.count)
        var rejected: [HealthSyncResult.Rejection] = []
        for (index, sample) in zip(samples.indices, samples) {
            do {
                let row = try stored(
                    sample, provider: provider, account: account, zone: zone, plausibility: plausibility, now: now)
                prepared.append(Prepared(index: index, stored: row))
            } catch let error as HealthSampleError {
                rejected.append(.init(index: index, code: error.code, message: error.message))
            } catch let error as Refusal {
                rejected.append(.init(index: index, code: error.code, message: error.message))
            } catch {
                rejected.append(.init(index: index, code: "INVALID_SAMPLE", message: "The sample is not valid."))
            }
        }
        return (prepared, rejected)
    }

    /// Why a sample was refused, for checks this layer makes.
    struct Refusal: Error {
        let code: String
        let message: String
    }

    private static func stored(
        _ sample: HealthSyncSample, provider: HealthProvider, account: AccountID, zone: TimeZone,
        plausibility: HealthPlausibility, now: Date
    ) throws -> StoredHealthSample {
        try checkLengths(of: sample)
        let quantity = try HealthQuantity(type: sample.type, value: sample.value, unit: sample.unit, provider: provider)
        guard let start = ClientTimestamp(sample.startDate), let end = ClientTimestamp(sample.endDate) else {
            throw Refusal(code: "INVALID_DATE", message: "startDate and endDate must be ISO 8601 times with a zone.")
        }
        let offset = try offset(of: sample, start: start, zone: zone)
        let source = SampleSource(
            bundleID: sample.sourceBundle, deviceModel: sample.deviceModel, deviceType: sample.deviceType,
            isUserEntered: sample.userEntered)
        let checked = try HealthSample(
            quantity: quantity, start: wholeMilliseconds(start.instant), end: wholeMilliseconds(end.instant),
            utcOffsetSeconds: offset, source: source)
        try plausibility.check(checked, at: now)
        let hash = SampleFingerprint.seedHash(
            userID: account.description, sampleID: sample.id, type: sample.type, value: sample.value,
            startDate: sample.startDate, endDate: sample.endDate)
        let platformId =
            sample.id.flatMap { SampleIdentity(accountID: account.rawValue, provider: provider, platformID: $0) }?
            .platformID ?? hash
        if let id = sample.id, !id.isEmpty, !HealthSync.sampleIDRule.allows(platformId) {
            throw Refusal(code: "INVALID_ID", message: "A sample id is \(HealthSync.sampleIDRule.requirement).")
        }
        return StoredHealthSample(
            id: UUID(), accountId: account, provider: provider.rawValue, platformId: platformId,
            type: quantity.type.rawValue, value: quantity.value, startAt: checked.start, endAt: checked.end,
            utcOffsetSeconds: offset, sourceBundle: sample.sourceBundle, deviceModel: sample.deviceModel,
            deviceType: sample.deviceType, userEntered: sample.userEntered, version: try version(of: sample),
            dedupHash: hash, createdAt: now, updatedAt: now)
    }

    /// The longest each stored text field may be, in bytes: an Apple bundle id is at most 155 characters, device
    /// models and Health Connect's device types are short names; none holds a control character. (Type, unit and
    /// times are refused unless known.)
    static let fieldRules: [(name: String, value: KeyPath<HealthSyncSample, String?>, rule: TextRule)] = [
        ("sourceBundle", \.sourceBundle, TextRule(0...255, .bytes, .noControl)),
        ("deviceModel", \.deviceModel, TextRule(0...128, .bytes, .noControl)),
        ("deviceType", \.deviceType, TextRule(0...64, .bytes, .noControl)),
        ("timeZoneOffset", \.timeZoneOffset, TextRule(0...16, .bytes, .noControl)),
        ("lastModified", \.lastModified, TextRule(0...64, .bytes, .noControl)),
    ]

    /// `FIELD_TOO_LONG` or `FIELD_INVALID` (a control character), naming the field and its limit.
    private static func checkLengths(of sample: HealthSyncSample) throws {
        for field in fieldRules {
            guard let text = sample[keyPath: field.value] else { continue }
            switch field.rule.violation(of: text) {
            case .length?:
                throw Refusal(
                    code: "FIELD_TOO_LONG", message: "\(field.name) is at most \(field.rule.length.upperBound) bytes.")
            case .characters?:
                throw Refusal(
                    code: "FIELD_INVALID",
                    message: "\(field.name) must hold no control characters (U+0000-U+001F, U+007F).")
            case nil: continue
            }
        }
    }

    /// The sample's own offset, else the one written in its start, else the account's zone at its start.
    private static func offset(of sample: HealthSyncSample, start: ClientTimestamp, zone: TimeZone) throws -> Int {
        if let text = sample.timeZoneOffset {
            guard let offset = ClientTimestamp.offsetSeconds(text) else {
                throw Refusal(code: "INVALID_OFFSET", message: "timeZoneOffset must be ±HH:MM, at most 18 hours.")
            }
            return offset
        }
        return start.writtenOffset ?? zone.secondsFromGMT(for: start.instant)
    }

    private static func version(of sample: HealthSyncSample) throws -> Int64? {
        if let version = sample.version { return version }
        guard let text = sample.lastModified else { return nil }
        guard let modified = ClientTimestamp(text) else {
            throw Refusal(code: "INVALID_DATE", message: "lastModified must be an ISO 8601 time with a zone.")
        }
        return Int64((modified.instant.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// Times are kept to the millisecond, which every database stores exactly, so an unchanged sample compares equal.
    static func wholeMilliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }
}
