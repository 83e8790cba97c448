import Foundation

/// Sample sync (seeds 000 and 004): a batch is checked, deduplicated by each sample's platform identity, stored whole
/// in one transaction with its deletions, rolled up by local day, and logged.
public struct HealthSync: Sendable {
    let repository: any HealthSampleRepository
    let consents: HealthConsents
    let rollups: HealthRollupWriter
    let plausibility: HealthPlausibility
    /// The most stored samples one batch may read back to recompute its days (`health.maxSamplesReadPerSync`).
    let maximumSamplesRead: Int
    let clock: HaleClock

    /// The most samples, and the most deletions, one batch may carry.
    public static let maximumBatch = 10_000
    /// A batch id: a client's retry key.
    public static let batchIDRule = TextRule(1...128, .bytes, .noControl)
    /// A sample's platform id (HealthKit's UUID, Health Connect's record id), and a deletion's.
    public static let sampleIDRule = TextRule(1...255, .bytes, .noControl)

    /// Work done in a sync's transaction after its samples, rollups and log are written, given its log, the samples
    /// it refused and the transaction: what commits with the batch or not at all.
    public typealias Alongside =
        @Sendable (HealthSyncLog, [HealthSyncResult.Rejection], UnitOfWork) async throws
        -> Void

    /// Syncs `batch` for the account; days and offsets a sample does not carry are taken in `zone`. `proof` is what
    /// proved the request that brought it, when it was attested: kept with its samples, which then count towards
    /// verified challenges. `alongside`, when given, runs in the transaction that stores the batch.
    public func sync(
        _ batch: HealthSyncBatch, account: AccountID, zone: TimeZone, proof: HealthWriteProof? = nil,
        alongside: Alongside? = nil
    ) async throws -> HealthSyncResult {
        let request = try Request(batch)
        if let batchId = batch.batchId, let log = try await repository.log(of: account, batch: batchId) {
            return HealthSyncResult(log: log, rejected: [], replayed: true)
        }
        let started = clock.now()
        let (prepared, rejected) = await Self.prepareConcurrently(
            batch.samples, provider: request.provider, account: account, zone: zone, plausibility: plausibility,
            now: started)
        let checked = CheckedBatch(
            request: request, batchId: batch.batchId, deletions: batch.deletions, prepared: prepared,
            rejected: rejected, started: started, proof: proof)
        return try await store(checked, account: account, alongside: alongside)
    }

    /// A batch checked and ready to store: its samples as they would be stored, and those refused.
    struct CheckedBatch: Sendable {
        let request: Request
        let batchId: String?
        let deletions: [String]
        var prepared: [Prepared]
        let rejected: [HealthSyncResult.Rejection]
        let started: Date
        /// What proved the request that brought the batch, when it was attested; an import's never is.
        var proof: HealthWriteProof? = nil
    }

    /// Checks a batch with no `batchId` on the calling thread, without the database: what a caller that makes
    /// batches (the import) does on a thread of its own, while the last batch is stored.
    func check(_ batch: HealthSyncBatch, account: AccountID, zone: TimeZone) throws -> CheckedBatch {
        let request = try Request(batch)
        let started = clock.now()
        let (prepared, rejected) = Self.prepare(
            batch.samples[...], provider: request.provider, account: account, zone: zone,
            plausibility: plausibility, now: started)
        return CheckedBatch(
            request: request, batchId: nil, deletions: batch.deletions, prepared: prepared, rejected: rejected,
            started: started)
    }

    /// Stores a checked batch: consent, deduplication, the samples, rollups, challenge progress and the log, in one
    /// transaction with `alongside` and, when `reporting`, its `health.synced` event (an import reports once, at
    /// its end).
    func store(_ checked: CheckedBatch, account: AccountID, alongside: Alongside?, reporting: Bool = true)
        async throws -> HealthSyncResult
    {
        let request = checked.request
        let (prepared, rejected) = (checked.prepared, checked.rejected)
        var log = HealthSyncLog(
            id: UUID(), accountId: account, provider: request.provider.rawValue, batchId: checked.batchId,
            syncType: request.syncType, lookbackDays: request.lookbackDays, startedAt: checked.started,
            status: .inProgress)
        log.recordsProcessed = prepared.count + rejected.count + checked.deletions.count
        log.recordsRejected = rejected.count
        do {
            try await requireConsent(for: prepared, from: request.provider, of: account)
        } catch let error as HaleError {
            log.status = .failed
            log.errorMessage = error.message
            log.completedAt = clock.now()
            _ = try await repository.insert(log)
            throw error
        }
        let deletions = checked.deletions.map {
            SampleIdentity(accountID: account.rawValue, provider: request.provider, platformID: $0)?.platformID ?? $0
        }
        var storing: (@Sendable (HealthSyncLog, UnitOfWork) async throws -> Void)?
        if let alongside {
            storing = { @Sendable log, work in try await alongside(log, rejected, work) }
        }
        let stored = try await store(
            checked.proof.map { proof in prepared.map { $0.proved(by: proof.id) } } ?? prepared, proof: checked.proof,
            deleting: deletions, log: log, account: account,
            reporting: reporting, alongside: storing)
        return HealthSyncResult(log: stored, rejected: rejected, replayed: false)
    }

    /// The account's daily totals of `type` over `start … end`, by local day; without user-entered samples when
    /// `includingUserEntered` is false.
    public func dailyTotals(
        of account: AccountID, type: HealthSampleType, from start: LocalDate, through end: LocalDate,
        includingUserEntered: Bool = true
    ) async throws -> [LocalDate: Double] {
        try await repository.rollups(of: account, type: type.rawValue, from: start, through: end)
            .mapValues { includingUserEntered ? $0.all : $0.excludingUserEntered }
    }

    /// The account's most recent sync logs, newest first: at most `limit` (1 to 100, default 20), only those that
    /// ended with `status` when it is given.
    public func logs(of account: AccountID, limit: Int?, status: HealthSyncLog.Status? = nil) async throws
        -> [HealthSyncLog]
    {
        let limit = limit ?? 20
        guard (1...100).contains(limit) else { throw InvalidInput("limit", .between(1, 100)) }
        return try await repository.logs(of: account, limit: limit, status: status)
    }

    private func requireConsent(for samples: [Prepared], from provider: HealthProvider, of account: AccountID)
        async throws
    {
        let types = Set(samples.compactMap { HealthSampleType(rawValue: $0.stored.type) })
        try await consents.require(types, from: provider.platform, of: account)
    }

    private func store(
        _ samples: [Prepared], proof: HealthWriteProof?, deleting deletions: [String], log: HealthSyncLog,
        account: AccountID, reporting: Bool,
        alongside: (@Sendable (HealthSyncLog, UnitOfWork) async throws -> Void)?
    ) async throws -> HealthSyncLog {
        let rollups = rollups
        let clock = clock
        let maximumSamplesRead = maximumSamplesRead
        return try await repository.transaction { store in
            var log = log
            var changed: [StoredHealthSample] = []
            if let proof { try await store.insert(proof) }
            let existing = try await store.samples(
                of: account, provider: log.provider, platformIds: samples.map(\.stored.platformId))
            var plan = SyncPlan(existing: existing)
            for sample in samples { plan.add(sample.stored) }
            // Once: each is built from the plan's dictionaries.
            let (inserts, updates) = (plan.inserts, plan.updates)
            try await store.insert(inserts)
            try await store.update(updates)
            let deleted = try await store.delete(of: account, provider: log.provider, platformIds: deletions)
            changed += inserts + updates + plan.replaced + deleted
            log.recordsInserted = inserts.count
            log.recordsUpdated = updates.count
            log.recordsDeduplicated = plan.deduplicated
            log.recordsDeleted = deleted.count
            let now = clock.now()
            let days = HealthRollupWriter.days(of: changed)
            try await rollups.recompute(
                days, of: account, on: store, at: now, readingAtMost: maximumSamplesRead, written: inserts + updates)
            log.status = log.recordsRejected > 0 ? .partial : .completed
            log.completedAt = now
            guard try await store.insert(log) else {
                throw HaleError(.conflict, .conflict, message: "This batchId is being synced already; retry.")
            }
            try await store.markSynced(account, provider: log.provider, at: now)
            if reporting { try await store.report(.healthSynced(log, days: days, at: now)) }
            try await alongside?(log, store.unitOfWork)
            return log
        }
    }
}

extension HealthSync {
    /// The batch's settings, checked.
    struct Request: Sendable {
        let provider: HealthProvider
        let syncType: HealthSyncLog.SyncType
        let lookbackDays: Int

        init(_ batch: HealthSyncBatch) throws {
            let lookbackDays = batch.lookbackDays ?? batch.syncType.defaultLookbackDays
            guard (1...365).contains(lookbackDays) else { throw InvalidInput("lookbackDays", .between(1, 365)) }
            if let batchId = batch.batchId { try HealthSync.batchIDRule.check(batchId, field: "batchId") }
            guard batch.samples.count <= HealthSync.maximumBatch, batch.deletions.count <= HealthSync.maximumBatch
            else {
                throw HaleError(
                    .payloadTooLarge, .tooLarge,
                    message: "A batch holds at most \(HealthSync.maximumBatch) samples and as many deletions.")
            }
            if let index = batch.deletions.firstIndex(where: { !HealthSync.sampleIDRule.allows($0) }) {
                let rule = "a sample id of \(HealthSync.sampleIDRule.requirement)"
                throw InvalidInput("deletions[\(index)]", .form(rule))
            }
            self.provider = batch.provider
            self.syncType = batch.syncType
            self.lookbackDays = lookbackDays
        }
    }
}
