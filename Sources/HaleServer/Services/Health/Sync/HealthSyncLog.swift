import Foundation

/// One sync's record (seed 004's `health_sync_logs`, with updated, deleted and rejected counts added).
public struct HealthSyncLog: Sendable, Equatable, Codable {
    /// How a sync was started, and how far back it looks by default.
    public enum SyncType: String, Sendable, Codable, CaseIterable {
        /// The first sync after connecting: 30 days.
        case initial
        /// Started by the person: 7 days.
        case manual
        /// Started by the system: 3 days.
        case background

        /// Seed 004's lookback for this kind of sync.
        public var defaultLookbackDays: Int {
            switch self {
            case .initial: 30
            case .manual: 7
            case .background: 3
            }
        }
    }

    /// How a sync ended.
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// Still running.
        case inProgress = "in_progress"
        /// Every record was processed.
        case completed
        /// Stored, with some records rejected.
        case partial
        /// Nothing was stored.
        case failed
    }

    /// The log entry.
    public let id: UUID
    /// The account.
    public let accountId: AccountID
    /// The provider synced.
    public let provider: String
    /// The client's id for the batch, which makes a retry return this log instead of syncing again.
    public let batchId: String?
    /// How the sync was started.
    public let syncType: SyncType
    /// How many days back the client read.
    public let lookbackDays: Int
    /// When it started.
    public let startedAt: Date
    /// When it ended.
    public var completedAt: Date?
    /// How it ended.
    public var status: Status
    /// Samples and deletions received.
    public var recordsProcessed: Int = 0
    /// New samples stored.
    public var recordsInserted: Int = 0
    /// Stored samples changed by a newer version.
    public var recordsUpdated: Int = 0
    /// Samples already stored unchanged, or older than what is stored.
    public var recordsDeduplicated: Int = 0
    /// Samples removed by the deletions list.
    public var recordsDeleted: Int = 0
    /// Samples refused, each with a reason in the response.
    public var recordsRejected: Int = 0
    /// Why the sync failed, when it did.
    public var errorMessage: String?
}
