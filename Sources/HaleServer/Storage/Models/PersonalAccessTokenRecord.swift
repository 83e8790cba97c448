import Foundation

/// A personal access token as stored: the secret only as its SHA-256.
struct PersonalAccessTokenRecord: Codable, Sendable, Equatable {
    var id: Int64?
    var accountId: AccountID
    var name: String
    var secretHash: String
    var createdAt: Date
    var lastUsedAt: Date?
    var revokedAt: Date?
    /// When the token stops working; nil: when it is revoked.
    var expiresAt: Date?
    /// The social sign-in that issued the token (`google`, `apple`, `facebook`); nil for tokens an operator or a
    /// tool made, which never count as a sign-in.
    var signInMethod: String?
    /// The device whose sign-in issued it, revoked with the device; nil for a token made by hand.
    var deviceId: DeviceID? = nil
}
