import Foundation

/// Stores sessions and their refresh tokens. Rotation runs inside `transaction`, holding the session's lock.
protocol SessionRepository: Sendable {
    /// Runs `body` in a write transaction, with a repository bound to it.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SessionRepository) async throws -> T) async throws
        -> T
    /// Inserts a session.
    func create(_ record: SessionRecord) async throws
    /// The session with this identifier.
    func find(_ id: SessionID) async throws -> Session?
    /// The session and its secret, locked until the transaction ends (PostgreSQL; SQLite locks the database).
    func findForUpdate(_ id: SessionID) async throws -> SessionRecord?
    /// Inserts a refresh token.
    func insert(_ token: RefreshTokenRecord) async throws
    /// The refresh token with this hash.
    func findToken(hash: String) async throws -> RefreshTokenRecord?
    /// Marks an unspent token spent; returns `false` when it was already spent, so exactly one caller wins.
    func spend(tokenID: UUID, reason: RefreshTokenRecord.SpentReason, at date: Date) async throws -> Bool
    /// Records a refresh: the new last-use time and expiry.
    func touch(_ session: SessionID, at date: Date, expiresAt: Date) async throws
    /// Revokes one of the account's sessions; returns `false` when it is not the account's or already revoked.
    func revoke(_ session: SessionID, of account: AccountID, reason: String, at date: Date) async throws -> Bool
    /// Revokes all of the account's active sessions; returns how many.
    func revokeAll(of account: AccountID, reason: String, at date: Date) async throws -> Int
    /// The account's sessions that are neither revoked nor expired at `date`, newest first.
    func active(of account: AccountID, at date: Date) async throws -> [Session]
}
