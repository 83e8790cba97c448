import Foundation
import HealthSamples

/// A sync as a client sends it, its provider and sync type read by the surface and the rest not yet checked: seed
/// 004's samples and deletions, or seed 000's daily totals.
public struct HealthSyncBatch: Sendable {
    /// The platform the samples were read from.
    public var provider: HealthProvider
    /// What started the sync; `manual` unless the client says.
    public var syncType: HealthSyncLog.SyncType
    /// How far back the client read, 1 to 365 days; default 30, 7 or 3 by `syncType`.
    public var lookbackDays: Int?
    /// The client's id for this batch: a retry with the same id returns the first sync's log.
    public var batchId: String?
    /// The samples.
    public var samples: [HealthSyncSample]
    /// Platform ids of samples deleted on the device (HealthKit's `HKDeletedObject`, Health Connect's deletions).
    public var deletions: [String]

    /// A batch.
    public init(
        provider: HealthProvider, syncType: HealthSyncLog.SyncType = .manual, lookbackDays: Int? = nil,
        batchId: String? = nil, samples: [HealthSyncSample], deletions: [String] = []
    ) {
        self.provider = provider
        self.syncType = syncType
        self.lookbackDays = lookbackDays
        self.batchId = batchId
        self.samples = samples
        self.deletions = deletions
    }
}

/// What a sync did: its log, and why each refused sample was refused.
public struct HealthSyncResult: Sendable {
    /// A refused sample: its position in the batch and a stable code.
    public struct Rejection: Sendable, Equatable {
        /// The sample's index in `samples`.
        public let index: Int
        /// `INVALID_DATE`, `UNKNOWN_UNIT`, `VALUE_NEGATIVE`, …
        public let code: String
        /// What is wrong, without the value.
        public let message: String
    }

    /// The sync's log.
    public let log: HealthSyncLog
    /// The refused samples.
    public let rejected: [Rejection]
    /// Whether this answers a retry of a batch already synced, which changed nothing.
    public let replayed: Bool
}
