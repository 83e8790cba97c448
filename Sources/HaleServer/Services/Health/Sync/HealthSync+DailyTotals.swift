import Foundation

extension HealthSync {
    /// Seed 000's sync: one day's steps, distance (metres) or both, from `platform`.
    ///
    /// The day is `day`, whose midnight is `offset` seconds east of UTC; today is taken in `zone`. Each total is
    /// stored as a sample spanning that local day, identified by day and type and without a version, so the latest
    /// sync of a day replaces the one before.
    public func syncDailyTotals(
        platform: HealthPlatform, steps: Double?, distance: Double?, day: LocalDate, offset: Int, account: AccountID,
        zone: TimeZone, proof: HealthWriteProof? = nil
    ) async throws -> HealthSyncResult {
        try checkPlausible(steps: steps, distance: distance)
        guard plausibility.allows(day: day, today: LocalDate(at: clock.now(), in: zone)) else {
            let oldest = HealthPlausibility.describe(seconds: plausibility.oldestStart)
            throw InvalidInput("date", .form("a day within the last \(oldest) and not in the future"))
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
        let batch = HealthSyncBatch(provider: platform.provider, samples: samples)
        let result = try await sync(batch, account: account, zone: zone, proof: proof)
        if let rejection = result.rejected.first { throw InvalidInput("data", .described(rejection.message)) }
        return result
    }

    /// Each total a number of zero or more, and within the plausibility table.
    private func checkPlausible(steps: Double?, distance: Double?) throws {
        for (field, type, value) in [("steps", HealthSampleType.steps, steps), ("distance", .distance, distance)] {
            guard let value else { continue }
            guard value.isFinite, value >= 0 else { throw InvalidInput(field, .notNegative) }
            try ImplausibleHealthData.check(plausibility.implausibility(ofDayTotal: value, of: type))
        }
    }

    private static func offsetText(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        let hours = String(minutes / 60)
        let rest = String(minutes % 60)
        return (seconds < 0 ? "-" : "+") + String(repeating: "0", count: 2 - hours.count) + hours + ":"
            + String(repeating: "0", count: 2 - rest.count) + rest
    }
}
