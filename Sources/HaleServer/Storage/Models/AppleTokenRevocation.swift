import Foundation

/// An Apple refresh token waiting to be revoked: kept, sealed, until Apple confirms.
struct AppleTokenRevocation: Codable, Sendable, Equatable {
    var id: UUID
    /// The client id the token was issued to; revocation must name it.
    var clientId: String
    var refreshTokenSealed: String
    var attempts: Int64
    var nextAttemptAt: Date
    var lastError: String?
    var createdAt: Date
}
