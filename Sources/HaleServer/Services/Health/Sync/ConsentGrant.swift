import Foundation

/// An account's consent to one kind of health data from one platform.
public struct ConsentGrant: Sendable, Equatable, Codable {
    /// The account.
    public let accountId: AccountID
    /// Where the data comes from: `apple`, `google` or `health_connect`.
    public let platform: HealthPlatform
    /// The kind of data: `steps`, `distance`, …
    public let permission: HealthSampleType
    /// When it was last granted.
    public let grantedAt: Date
    /// When it was revoked, if it has been since.
    public let revokedAt: Date?

    /// Whether the consent is in force.
    public var isActive: Bool { revokedAt == nil }
}
