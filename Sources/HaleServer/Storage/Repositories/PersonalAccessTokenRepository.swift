import Foundation

/// Stores personal access tokens.
protocol PersonalAccessTokenRepository: Sendable {
    /// Inserts a token and returns the identifier the database assigned it.
    func create(_ token: PersonalAccessTokenRecord) async throws -> Int64
    /// The token with this identifier.
    func find(_ id: Int64) async throws -> PersonalAccessTokenRecord?
    /// The account's tokens, newest first, at most `limit`; with `activeAt`, only those neither revoked nor expired
    /// at that time.
    func tokens(of account: AccountID, activeAt date: Date?, limit: Int) async throws -> [PersonalAccessTokenRecord]
    /// Records when tokens were last used; a use never moves a token's last use back.
    func recordUses(_ uses: [Int64: Date]) async throws
    /// Revokes the token; returns `false` when it was already revoked.
    func revoke(_ id: Int64, at date: Date) async throws -> Bool
    /// Revokes one of the account's tokens, appending `audit` in the same transaction; returns `false`, and writes
    /// nothing, when the token is not the account's or was already revoked.
    func revoke(_ id: Int64, of account: AccountID, at date: Date, audit: AuditAppend) async throws -> Bool
}
