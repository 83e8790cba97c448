import Foundation

/// Recomputes daily rollups after samples change: every sample that could touch the changed days is read again and
/// rolled up by `DailyRollup`'s rules, with and without user-entered samples, and its verified samples by device
/// class (`VerifiedRollups`); then the progress of the fitness
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
    /// they change. With `maximumRead`, throws `PAYLOAD_TOO_LARGE` (and writes nothing the caller commits) before it
    /// would read back more stored samples than that: a sync's work, and the write lock it holds, stay bounded
    /// whatever the account has stored.
    ///
    /// `written` are the rows this transaction inserted or updated, as they now stand: where the store can read
    /// apart from them, they are taken from memory instead of read back.
    func recompute(
        _ days: [String: Set<LocalDate>], of account: AccountID,
        on store: any HealthRollupStore & FitnessChallengeProgressStore, at now: Date,
        readingAtMost maximumRead: Int? = nil, written: [StoredHealthSample] = []
    ) async throws {
        var read = 0
        let held = store.readsApartFromOwnWrites ? Dictionary(grouping: written, by: \.type) : [:]
        for (type, typeDays) in days {
            let priority = priorities.priority(for: type)
            var withoutUserEntered = priority
            withoutUserEntered.excludesUserEntered = true
            let heldOfType = held[type] ?? []
            for run in Self.runs(of: typeDays) {
                let limit = maximumRead.map { $0 - read + 1 }
                var checked = try await store.rollupInputs(
                    of: account, type: type, overlapping: run.start, run.end, limit: limit,
                    excludingOwnWrites: !heldOfType.isEmpty, ranking: priority)
                checked += heldOfType.filter { $0.startAt < run.end && $0.endAt >= run.start }.compactMap(\.sample)
                read += checked.count
                if let maximumRead, read > maximumRead { throw Self.tooMuchToRecompute(maximumRead) }
                let (all, devices) = await Self.rollups(of: checked, priority, withoutUserEntered)
                let verification = VerifiedRollups(of: checked, on: Set(run.days), ranking: priority)
                let values = run.days.map { day in
                    (
                        day: day,
                        value: all[day].map { value in
                            verification.value(of: day, all: value, excludingUserEntered: devices[day] ?? 0)
                        }
                    )
                }
                try await store.setRollups(of: account, type: type, values, at: now)
            }
        }
        // A day's stride joins its steps and distance: a change of either may flag or clear it, for challenges of
        // both.
        var progressDays = days
        let stride = [HealthSampleType.steps.rawValue, HealthSampleType.distance.rawValue]
        let strideDays = stride.reduce(into: Set<LocalDate>()) { $0.formUnion(days[$1] ?? []) }
        if let first = strideDays.min(), let last = strideDays.max() {
            try await store.markImplausibleStrides(of: account, from: first, through: last)
            for type in stride { progressDays[type, default: []].formUnion(strideDays) }
        }
        // After every rollup is written: progress locks the account (on PostgreSQL), and a transaction holding that
        // lock must not wait for another's rollups.
        for (type, typeDays) in progressDays {
            guard let first = typeDays.min(), let last = typeDays.max() else { continue }
            try await store.updateFitnessChallengeProgress(of: account, type: type, from: first, through: last, at: now)
        }
    }

    /// Days close enough to read together, and the span of time whose samples can touch them: a sample's local day
    /// can be up to 18 hours from its UTC day, either way. Days two or more apart are read apart, so a batch that
    /// changes one day in January and one in December reads two days' samples, not a year's.
    static func runs(of days: Set<LocalDate>) -> [(days: [LocalDate], start: Date, end: Date)] {
        var runs: [[LocalDate]] = []
        for day in days.sorted() {
            if let last = runs.last?.last, day.dayNumber - last.dayNumber <= 2 {
                runs[runs.count - 1].append(day)
            } else {
                runs.append([day])
            }
        }
        return runs.map { run in
            let first = run[0].dayNumber
            let last = run[run.count - 1].dayNumber
            return (
                run, Date(timeIntervalSince1970: Double(first * 86_400 - 18 * 3_600)),
                Date(timeIntervalSince1970: Double((last + 1) * 86_400 + 18 * 3_600))
            )
        }
    }

    private static func tooMuchToRecompute(_ maximum: Int) -> HaleError {
        HaleError(
            .payloadTooLarge, .tooLarge,
            message: "The days this batch changes hold more than \(maximum) stored samples; send their samples in"
                + " batches that each change fewer days.")
    }

    /// The samples' daily values by `priority`, and by `devicesOnly` (which leaves user-entered samples out). The
    /// same when no sample is user-entered; else, for many samples, computed at once on two threads: the database
    /// waits meanwhile, and the two were a tenth of an import's work on the event loop (`perf`).
    private static func rollups(
        of samples: [HealthSample], _ priority: SourcePriority, _ devicesOnly: SourcePriority
    ) async -> (all: [LocalDate: Double], devicesOnly: [LocalDate: Double]) {
        guard samples.contains(where: \.source.isUserEntered) else {
            let all = byDay(DailyRollup.rollups(of: samples, priority: priority))
            return (all, all)
        }
        guard samples.count >= 2_000 else {
            return (
                byDay(DailyRollup.rollups(of: samples, priority: priority)),
                byDay(DailyRollup.rollups(of: samples, priority: devicesOnly))
            )
        }
        let devices = ThreadWork { byDay(DailyRollup.rollups(of: samples, priority: devicesOnly)) }
        let all = byDay(DailyRollup.rollups(of: samples, priority: priority))
        return (all, await devices.value)
    }

    private static func byDay(_ rollups: [DailyRollup]) -> [LocalDate: Double] {
        var values: [LocalDate: Double] = [:]
        for rollup in rollups where rollup.sampleCount > 0 { values[rollup.day] = rollup.value }
        return values
    }
}
