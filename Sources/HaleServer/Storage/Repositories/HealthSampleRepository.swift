import Foundation

/// Stores synced samples, their daily rollups and the sync logs, shaped by use: a service depends on the stores it
/// reads and writes, and on this whole repository only where it needs a transaction across them. Every call is
/// scoped by the account, except retention's, which sweeps every account.
protocol HealthSampleRepository: HealthSampleStore, HealthRollupStore, FitnessChallengeProgressStore,
    HealthSyncLogStore, HealthRetentionStore, HealthDataRightsStore
{
    /// Where this repository writes: within `transaction`, the transaction, so other work can commit with the
    /// batch.
    var unitOfWork: UnitOfWork { get }
    /// Runs `body` in one write transaction: a batch is stored whole or not at all.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any HealthSampleRepository) async throws -> T)
        async throws -> T
}

/// The samples themselves, by platform id and by time.
protocol HealthSampleStore: Sendable {
    /// The account's samples from `provider` with these platform ids, by platform id.
    func samples(of account: AccountID, provider: String, platformIds: [String]) async throws
        -> [String: StoredHealthSample]
    /// Stores new samples.
    func insert(_ samples: [StoredHealthSample]) async throws
    /// Keeps what proved an attested write; a proof kept already (one write stored as several batches) is left.
    func insert(_ proof: HealthWriteProof) async throws
    /// Replaces stored samples' content and version.
    func update(_ samples: [StoredHealthSample]) async throws
    /// Deletes the account's samples from `provider` with these platform ids; returns what it deleted.
    func delete(of account: AccountID, provider: String, platformIds: [String]) async throws -> [StoredHealthSample]
    /// Deletes the account's samples of these types from these providers; returns what it deleted.
    func delete(of account: AccountID, providers: [String], types: [String]) async throws -> [StoredHealthSample]
    /// The account's samples of `type` that overlap `start ..< end`; at most `limit` of them when it is given.
    func samples(of account: AccountID, type: String, overlapping start: Date, _ end: Date, limit: Int?) async throws
        -> [StoredHealthSample]
    /// The account's samples of `type` that overlap `start ..< end` and were synced with their platform's own ids:
    /// those whose platform id does not start with `importedPrefix`. At most `limit` of them.
    func syncedSamples(
        of account: AccountID, type: String, overlapping start: Date, _ end: Date, importedPrefix: String, limit: Int
    ) async throws -> [StoredHealthSample]
}

/// Daily rollups: what they are computed from, and what they hold.
protocol HealthRollupStore: Sendable {
    /// What the rollup rules read of the account's samples of `type` that overlap `start ..< end`: only the columns
    /// they need, checked; at most `limit` of them when it is given.
    ///
    /// With `excludingOwnWrites`, leaves out the rows this transaction wrote, for a caller that holds them:
    /// honoured only where `readsApartFromOwnWrites`.
    func rollupInputs(
        of account: AccountID, type: String, overlapping start: Date, _ end: Date, limit: Int?,
        excludingOwnWrites: Bool, ranking: SourcePriority
    ) async throws -> [HealthSample]
    /// Whether `rollupInputs` can leave out the rows this transaction wrote (PostgreSQL, by `xmin`).
    var readsApartFromOwnWrites: Bool { get }
    /// Sets the account's rollups of `type` on each day of `values`, and removes those whose value is nil: a few
    /// statements however many days.
    func setRollups(
        of account: AccountID, type: String, _ values: [(day: LocalDate, value: HealthRollupValue?)], at date: Date
    ) async throws
    /// The account's rollups of `type` over `start … end`, by day.
    func rollups(of account: AccountID, type: String, from start: LocalDate, through end: LocalDate) async throws
        -> [LocalDate: (all: Double, excludingUserEntered: Double)]
    /// The account's synced daily totals over `start … end` as seed 001's four measures, by day, and when each day
    /// last changed.
    func syncedTotals(of account: AccountID, from start: LocalDate, through end: LocalDate) async throws
        -> [LocalDate: (totals: HealthTotals, updatedAt: Date)]
}

/// Members' progress in fitness challenges, kept from the rollups.
protocol FitnessChallengeProgressStore: Sendable {
    /// Recomputes the account's progress in the fitness challenges it is an active member of that count `type` and
    /// whose window overlaps `first … last`, from its rollups; run after the rollups changed, in their transaction.
    func updateFitnessChallengeProgress(
        of account: AccountID, type: String, from first: LocalDate, through last: LocalDate, at date: Date
    ) async throws
    /// Flags the account's days over `first … last` whose verified steps a device took with less than 25 cm of its
    /// own verified distance a step; run after the steps or distance rollups of those days changed, before progress.
    func markImplausibleStrides(of account: AccountID, from first: LocalDate, through last: LocalDate) async throws
    /// Forgets the account's expired progress in fitness challenges of these types, after the data it came from was
    /// revoked or deleted. Run it in that transaction, after the rollups were recomputed.
    func forgetExpiredProgress(of account: AccountID, types: [String]) async throws
}

/// Sync logs, and what a sync reports and marks as it commits.
protocol HealthSyncLogStore: Sendable {
    /// Stores a sync's log; false when the account already has one for its batch id.
    func insert(_ log: HealthSyncLog) async throws -> Bool
    /// The log of the account's batch with this id.
    func log(of account: AccountID, batch: String) async throws -> HealthSyncLog?
    /// The account's most recent logs, newest first.
    func logs(of account: AccountID, limit: Int, status: HealthSyncLog.Status?) async throws -> [HealthSyncLog]
    /// Writes an event for the app's backend in this repository's transaction.
    func report(_ event: WebhookEvent) async throws
    /// Records a sync through the account's connection to `provider`, if it has one.
    func markSynced(_ account: AccountID, provider: String, at date: Date) async throws
}

/// What retention deletes and expires, across every account.
protocol HealthRetentionStore: Sendable {
    /// Deletes up to `limit` samples of any account that ended before `date`; returns how many. Rows another
    /// instance is deleting are skipped, not waited for.
    func deleteSamples(endedBefore date: Date, limit: Int) async throws -> Int
    /// Deletes up to `limit` rollups of any account of days before `day`, moving each one's value into the
    /// `expired_progress` of the fitness challenge memberships whose window holds it; returns how many. Rows another
    /// instance is expiring are skipped, not waited for. Run it in a transaction.
    func expireRollups(before day: LocalDate, limit: Int) async throws -> Int
    /// Deletes every account's sync logs started before `date`.
    func deleteLogs(startedBefore date: Date) async throws
    /// Deletes up to `limit` write proofs of any account made before `date`; returns how many.
    func deleteProofs(createdBefore date: Date, limit: Int) async throws -> Int
    /// Deletes up to `limit` samples of any account whose kind and platform has no consent in force; returns them.
    func deleteUnconsentedSamples(limit: Int) async throws -> [StoredHealthSample]
}

/// The account's whole data, to export or delete (its data rights).
protocol HealthDataRightsStore: Sendable {
    /// Up to `limit` of the account's samples ordered by start and id, after `cursor` (a start and an id).
    func samples(of account: AccountID, after cursor: (start: Date, id: UUID)?, limit: Int) async throws
        -> [StoredHealthSample]
    /// The account's rollups, every type and day, ordered by day and type.
    func allRollups(of account: AccountID) async throws
        -> [(day: LocalDate, type: String, all: Double, excludingUserEntered: Double)]
    /// Deletes every sample of the account; returns what it deleted.
    func deleteAllSamples(of account: AccountID) async throws -> [StoredHealthSample]
    /// Deletes every sync log of the account; returns how many.
    func deleteAllLogs(of account: AccountID) async throws -> Int
    /// Deletes every write proof of the account.
    func deleteAllProofs(of account: AccountID) async throws
}

/// One day's rollup of one type: its totals, and what verified fitness challenges count of it.
struct HealthRollupValue: Sendable, Equatable {
    /// The total of every sample.
    var all: Double
    /// The total without samples a person typed in.
    var excludingUserEntered: Double
    /// The total of verified samples (`SampleSource.isVerified`) by the class of device that recorded them.
    var verified: [DeviceClass: Double] = [:]
    /// Of the samples that start on the day: how many a person typed in.
    var userEnteredSamples = 0
    /// How many a device recorded but no attested write brought.
    var unattestedSamples = 0
    /// How many are verified, by device class.
    var verifiedSamples: [DeviceClass: Int] = [:]
    /// Why the day's verified steps are implausible, if they are (`SustainedStepRate`).
    var implausibleRate: String? = nil
}
