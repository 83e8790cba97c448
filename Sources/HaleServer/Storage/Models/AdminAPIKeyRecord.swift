import Foundation

/// An admin API key as stored: its name and the SHA-256 of its secret, never the secret.
public struct AdminAPIKeyRecord: Codable, Sendable, Equatable {
    /// The key's identifier, the middle part of `admin.<id>.<secret>`.
    public var id: Int64?
    /// What the operator called it, such as the backend that uses it.
    public var name: String
    var secretHash: String
    /// When it was created.
    public var createdAt: Date
    /// When it was last used, to the minute.
    public var lastUsedAt: Date?
    /// When it was revoked, if it was.
    public var revokedAt: Date?
}
