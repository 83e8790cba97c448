import Foundation

/// An account's connection to a health-data provider (seed 004).
public struct HealthConnection: Sendable, Equatable {
    /// The connection.
    public let id: UUID
    /// The account.
    public let accountId: AccountID
    /// The provider.
    public let provider: HealthProvider
    /// What the person granted when connecting.
    public let permissionsGranted: [HealthSampleType]
    /// The same, each named as the app sent it (seed 004's `activeMinutes`, a HealthKit identifier, ...), so the
    /// app reads back what it wrote.
    public let permissionNames: [String]
    /// When it was last connected.
    public let connectedAt: Date
    /// When data last synced through it.
    public let lastSyncAt: Date?
    /// Whether it is connected now.
    public let isActive: Bool
    /// When it was disconnected, if it is.
    public let disconnectedAt: Date?
}
