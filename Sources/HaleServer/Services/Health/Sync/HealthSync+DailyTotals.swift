import Foundation

extension HealthSync {
    /// Seed 000's sync: one day's steps and distance (metres) from Apple Health (`apple`) or Google Fit (`google`).
    ///
    /// The day is `date`: `YYYY-MM-DD` as Android sends it, or a full timestamp as iOS sends it, read in its
    /// written offset or else in `zone`. Each total is stored as a sample spanning that local day, identified by
    /// day and type and without a version, so the latest sync of a day replaces the one before.
    public func syncDailyTotals(
        platform: String?, steps: Double?, distance: Double?, date: String?, account: AccountID, zone: TimeZone
    ) async throws -> (day: LocalDate, result: HealthSyncResult) {
        guard let platform, platform == "apple" || platform == "google" else {
            throw HaleError.invalidRequest("platform must be one of: apple, google")
        }
        guard steps != nil || distance != nil else {
            throw HaleError.invalidRequest("data must contain steps, distance or both")
        }
        try checkPlausible(steps: steps, distance: distance)
        let (day, offset) = try Self.day(of: date, zone: zone)
        guard plausibility.allows(day: day, today: LocalDate(at: clock.now(), in: zone)) else {
            throw HaleError.invalidRequest(
                "data.date must be a day within the last \(HealthPlausibility.describe(seconds: plausibility.oldestStart)) and not in the future"
            )
        }
        let start = Date(timeIntervalSince1970: Double(day.dayNumber * 86_400 - offset))
        let totals: [(type: String, unit: String, value: Double?)] = [
            ("steps", "count", steps), ("distance", "m", distance),
        ]
        let samples = totals.compactMap { total in
            total.value.map {
                HealthSyncSample(
                    id: "daily-total:\(day):\(total.type)", type: total.type, value: $0, unit: total.unit,
                    startDate: ISO8601.string(start), endDate: ISO8601.string(start.addingTimeInterval(86_400)),
                    timeZoneOffset: Self.offsetText(offset))
            }
        }
        let result = try await sync(HealthSyncBatch(provider: platform, samples: samples), account: account, zone: zone)
        if let rejection = result.rejected.first { throw HaleError.invalidRequest(rejection.message) }
        return (day, result)
    }

    /// Each total a number of zero or more, and within the plausibility table.
    private func checkPlausible(steps: Double?, distance: Double?) throws {
        for (field, type, value) in [("steps", HealthSampleType.steps, steps), ("distance", .distance, distance)] {
            guard let value else { continue }
            guard value.isFinite, value >= 0 else {
                throw HaleError.invalidRequest("data.\(field) must be a number of zero or more")
            }
            try ImplausibleHealthData.check(plausibility.implausibility(ofDayTotal: value, of: type))
        }
    }

    /// The local day `date` names, and the offset its midnight is in.
    private static func day(of date: String?, zone: TimeZone) throws -> (LocalDate, Int) {
        guard let date else { throw HaleError.invalidRequest("data.date is required") }
        if let day = LocalDate(date) {
            let noon = Date(timeIntervalSince1970: Double(day.dayNumber * 86_400 + 43_200))
            return (day, zone.secondsFromGMT(for: noon))
        }
        guard let timestamp = ClientTimestamp(date) else {
            throw HaleError.invalidRequest("data.date must be YYYY-MM-DD or an ISO 8601 time with a zone")
        }
        let offset = timestamp.writtenOffset ?? zone.secondsFromGMT(for: timestamp.instant)
        // Offsets are within ±18 hours, which a fixed-offset zone always accepts.
        let day = LocalDate(at: timestamp.instant, in: TimeZone(secondsFromGMT: offset) ?? zone)
        return (day, offset)
    }

    private static func offsetText(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        let hours = String(minutes / 60)
        let rest = String(minutes % 60)
        return (seconds < 0 ? "-" : "+") + String(repeating: "0", count: 2 - hours.count) + hours + ":"
            + String(repeating: "0", count: 2 - rest.count) + rest
    }
}
