import Foundation

/// Keeps health data only as long as it may be kept: samples older than the retention (seed 000's 30 days by
/// default) go, with their rollups and sync logs, and so do seed 001's attested day totals of days before it; any
/// sample whose consent is no longer in force goes too. Fitness challenges keep what expired rollups counted, so a
/// challenge longer than the retention loses nothing.
public struct HealthRetention: Sendable {
    let repository: any HealthSampleRepository
    /// Seed 001's attested day totals.
    let attested: any HealthRepository
    let rollups: HealthRollupWriter
    /// Days kept; 0 keeps everything.
    let retentionDays: Int
    let clock: HaleClock

    /// Rows deleted per statement, so a large backlog never holds one long transaction.
    static let batch = 1_000

    /// Deletes what is past the retention; returns how many samples.
    @discardableResult
    public func deleteExpired() async throws -> Int {
        guard retentionDays > 0 else { return 0 }
        let cutoff = clock.now().addingTimeInterval(-Double(retentionDays) * 86_400)
        var deleted = 0
        while true {
            let count = try await repository.deleteSamples(endedBefore: cutoff, limit: Self.batch)
            deleted += count
            if count < Self.batch { break }
        }
        // A local day can end up to 18 hours after its UTC day: keep the day before the cutoff's.
        let cutoffDay = LocalDate(at: cutoff, in: TimeZone(identifier: "UTC")!).adding(days: -1)
        while try await repository.transaction({ try await $0.expireRollups(before: cutoffDay, limit: Self.batch) })
            == Self.batch
        {}
        while try await attested.deleteDailyTotals(before: cutoffDay, limit: Self.batch) == Self.batch {}
        // A write's samples end at most a day ahead of it and last at most a week: eight days before the cutoff, a
        // proof has no sample left to name.
        let proofCutoff = cutoff.addingTimeInterval(-8 * 86_400)
        while try await repository.deleteProofs(createdBefore: proofCutoff, limit: Self.batch) == Self.batch {}
        try await repository.deleteLogs(startedBefore: cutoff)
        return deleted
    }

    /// Deletes samples whose kind and platform has no consent in force, and rebuilds the rollups they were in. A
    /// revocation deletes its data when it is answered; this catches a sync that raced it.
    @discardableResult
    public func deleteUnconsented() async throws -> Int {
        let rollups = rollups
        let now = clock.now()
        var deleted = 0
        while true {
            let count = try await repository.transaction { store in
                let samples = try await store.deleteUnconsentedSamples(limit: Self.batch)
                for (account, owned) in samples.groupedInLockOrder(by: \.accountId) {
                    try await rollups.recompute(HealthRollupWriter.days(of: owned), of: account, on: store, at: now)
                }
                return samples.count
            }
            deleted += count
            if count < Self.batch { return deleted }
        }
    }
}
