import Foundation

/// Stores personal access tokens.
protocol PersonalAccessTokenRepository: Sendable {
    /// Inserts a token and returns the identifier the database assigned it.
    func create(_ token: PersonalAccessTokenRecord) async throws -> Int64
    /// The token with this identifier.
    func find(_ id: Int64) async throws -> PersonalAccessTokenRecord?
    /// Records a use.
    func touch(_ id: Int64, at date: Date) async throws
    /// Revokes the token; returns `false` when it was already revoked.
    func revoke(_ id: Int64, at date: Date) async throws -> Bool
}
