import Foundation

/// A person's rights over their health data: a full export, and deletion of all of it.
public struct HealthDataRights: Sendable {
    let samples: any HealthSampleRepository
    let attested: any HealthRepository
    let consents: HealthConsents
    let connections: HealthConnections
    let rollups: HealthRollupWriter
    let audit: AuditTrail
    let clock: HaleClock

    /// Everything of an export except the samples, which are read page by page.
    public struct ExportHead: Sendable {
        /// When the export was made.
        public let exportedAt: Date
        /// Every consent grant, revoked ones included.
        public let consent: [ConsentGrant]
        /// Every connection.
        public let connections: [HealthConnection]
        /// The daily totals of synced samples.
        public let dailyTotals: [(day: LocalDate, type: String, all: Double, excludingUserEntered: Double)]
        /// Seed 001's attested day totals.
        public let attestedDailyTotals: [HealthDailyTotal]
        /// The sync logs kept.
        public let syncLogs: [HealthSyncLog]
    }

    /// What deleting everything deleted.
    public struct Deleted: Sendable, Equatable {
        /// Synced samples.
        public let samples: Int
        /// Seed 001's day totals.
        public let attestedDailyTotals: Int
        /// Sync logs.
        public let syncLogs: Int
    }

    /// The export's head.
    public func exportHead(of account: AccountID) async throws -> ExportHead {
        ExportHead(
            exportedAt: clock.now(), consent: try await consents.history(of: account),
            connections: try await connections.list(of: account),
            dailyTotals: try await samples.allRollups(of: account),
            attestedDailyTotals: try await attested.allDailyTotals(of: account),
            syncLogs: try await samples.logs(of: account, limit: 100_000, status: nil))
    }

    /// The account's samples after `cursor`, in order of start and id.
    public func exportSamples(of account: AccountID, after cursor: (start: Date, id: UUID)?, limit: Int) async throws
        -> [StoredHealthSample]
    {
        try await samples.samples(of: account, after: cursor, limit: limit)
    }

    /// Deletes all of the account's health data: synced samples and their totals, sync logs, and seed 001's day
    /// totals. Consent and connections stay, so syncing can go on.
    public func deleteAll(of account: AccountID) async throws -> Deleted {
        let rollups = rollups
        let now = clock.now()
        let (samples, logs) = try await samples.transaction { store in
            let deleted = try await store.deleteAllSamples(of: account)
            try await rollups.recompute(HealthRollupWriter.days(of: deleted), of: account, on: store, at: now)
            try await store.forgetExpiredProgress(of: account, types: HealthSampleType.allCases.map(\.rawValue))
            try await store.deleteAllProofs(of: account)
            return (deleted.count, try await store.deleteAllLogs(of: account))
        }
        let attestedDeleted = try await attested.deleteAll(of: account)
        try await audit.record(
            .healthDataDeleted, .init(account: account),
            details: ["samples": "\(samples)", "attestedDailyTotals": "\(attestedDeleted)"])
        return Deleted(samples: samples, attestedDailyTotals: attestedDeleted, syncLogs: logs)
    }
}
