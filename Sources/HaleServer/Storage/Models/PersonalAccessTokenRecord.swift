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
}
