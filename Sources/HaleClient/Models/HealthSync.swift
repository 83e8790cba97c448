import Foundation

/// A consent grant.
public struct ConsentGrant: Sendable, Hashable, Decodable {
    /// `apple`, `google` or `health_connect`.
    public let platform: String
    /// What it permits, such as `steps`.
    public let permission: String
    /// When it was granted.
    public let grantedAt: Date
    /// When it was revoked, if it was.
    public let revokedAt: Date?
}

/// A connection to a health data provider.
public struct HealthConnection: Sendable, Hashable, Decodable {
    /// Its id.
    public let id: String
    /// The provider.
    public let provider: String
    /// The permissions granted.
    public let permissionsGranted: [String]
    /// When it was connected.
    public let connectedAt: Date
    /// When it last synced.
    public let lastSyncAt: Date?
    /// Whether it is connected.
    public let isActive: Bool
    /// When it was disconnected.
    public let disconnectedAt: Date?
}

/// What a sync did.
public struct HealthSyncLog: Sendable, Hashable, Decodable {
    /// Its id.
    public let id: String
    /// The provider synced.
    public let provider: String
    /// `initial`, `manual` or `background`.
    public let syncType: String
    /// `completed`, `partial` or `failed`.
    public let status: String
    /// When it started.
    public let startedAt: Date
    /// When it ended.
    public let completedAt: Date?
    /// Samples received.
    public let recordsProcessed: Int
    /// New samples stored.
    public let recordsInserted: Int
    /// Samples that changed stored ones.
    public let recordsUpdated: Int
    /// Samples already stored.
    public let recordsDeduplicated: Int
    /// Samples deleted.
    public let recordsDeleted: Int
    /// Samples refused.
    public let recordsRejected: Int
    /// Why it failed, if it did.
    public let errorMessage: String?
}

/// A sample the server refused, and why.
public struct RejectedSample: Sendable, Hashable, Decodable {
    /// Its index in the batch.
    public let index: Int
    /// A code, such as `INVALID_UNIT`.
    public let code: String
    /// A message.
    public let message: String
}

/// The answer to a sync.
public struct HealthSyncResult: Sendable, Hashable, Decodable {
    /// What the sync did.
    public let syncLog: HealthSyncLog
    /// The samples refused.
    public let rejected: [RejectedSample]
    /// Whether this answers a batch already synced.
    public let replayed: Bool
}
