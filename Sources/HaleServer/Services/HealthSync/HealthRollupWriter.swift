import Foundation

/// Recomputes daily rollups after samples change: every sample that could touch the changed days is read again and
/// rolled up by `DailyRollup`'s rules, with and without user-entered samples; then the progress of the fitness
/// challenges those days count towards is recomputed from the new rollups, in the same transaction.
struct HealthRollupWriter: Sendable {
    let priorities: SourcePriorities

    /// The local days each changed sample falls on, by type.
    static func days(of samples: [StoredHealthSample]) -> [String: Set<LocalDate>] {
        var days: [String: Set<LocalDate>] = [:]
        for sample in samples {
            guard let checked = sample.sample else { continue }
            days[sample.type, default: []].formUnion(checked.localDayValues().map(\.day))
            days[sample.type, default: []].insert(checked.startDay)
        }
        return days
    }

    /// Writes the rollups of `days`, by type, for the account, and the account's progress in the fitness challenges
    /// they change.
    func recompute(
        _ days: [String: Set<LocalDate>], of account: AccountID, on store: any HealthSampleRepository, at now: Date
    ) async throws {
        for (type, typeDays) in days {
            guard let first = typeDays.min(), let last = typeDays.max() else { continue }
            // A sample's local day can be up to 18 hours from its UTC day, either way.
            let start = Date(timeIntervalSince1970: Double(first.dayNumber * 86_400 - 18 * 3_600))
            let end = Date(timeIntervalSince1970: Double((last.dayNumber + 1) * 86_400 + 18 * 3_600))
            let samples = try await store.samples(of: account, type: type, overlapping: start, end)
                .compactMap(\.sample)
            let priority = priorities.priority(for: type)
            let all = Self.byDay(DailyRollup.rollups(of: samples, priority: priority))
            var withoutUserEntered = priority
            withoutUserEntered.excludesUserEntered = true
            let devices = Self.byDay(DailyRollup.rollups(of: samples, priority: withoutUserEntered))
            for day in typeDays.sorted() {
                let value = all[day].map { (all: $0, excludingUserEntered: devices[day] ?? 0) }
                try await store.setRollup(of: account, day: day, type: type, value: value, at: now)
            }
        }
        // After every rollup is written: progress locks the account (on PostgreSQL), and a transaction holding that
        // lock must not wait for another's rollups.
        for (type, typeDays) in days {
            guard let first = typeDays.min(), let last = typeDays.max() else { continue }
            try await store.updateFitnessChallengeProgress(of: account, type: type, from: first, through: last, at: now)
        }
    }

    private static func byDay(_ rollups: [DailyRollup]) -> [LocalDate: Double] {
        var values: [LocalDate: Double] = [:]
        for rollup in rollups where rollup.sampleCount > 0 { values[rollup.day] = rollup.value }
        return values
    }
}
