import Foundation

/// Stores sessions and their refresh tokens. Rotation runs inside `transaction`, holding the token's and the session's
/// locks.
protocol SessionRepository: Sendable {
    /// Runs `body` in a write transaction, with a repository bound to it.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SessionRepository) async throws -> T) async throws
        -> T
    /// Inserts a session with its first refresh token.
    func create(_ record: SessionRecord, firstToken: RefreshTokenRecord) async throws
    /// The session with this identifier.
    func find(_ id: SessionID) async throws -> Session?
    /// The refresh token with this hash and its session, both locked until the transaction ends (PostgreSQL; SQLite
    /// locks the database), so the token's state is the latest committed one.
    func findTokenLockingSession(hash: String) async throws -> (token: RefreshTokenRecord, session: SessionRecord)?
    /// What a refresh with the token of this hash is checked against: its session's state and bound key, read in one
    /// statement without locking them.
    func bindingState(ofTokenHash hash: String) async throws -> SessionBindingState?
    /// Moves the asserting key's counter on, in the caller's transaction; false when another request moved it first.
    func advance(_ assertion: AttestedAssertion, at date: Date) async throws -> Bool
    /// The refresh token with this hash.
    func findToken(hash: String) async throws -> RefreshTokenRecord?
    /// Binds the locked session to an attested App Attest key (`tokens.bindToAttestation`).
    func bind(_ session: SessionID, to key: AttestedInstanceKey, at date: Date) async throws
    /// Binds the session to an Android app by Play Integrity, as proved at `date`.
    func bind(_ session: SessionID, toPlayIntegrityApp packageName: String, at date: Date) async throws
    /// Records that a refresh proved the session's binding at `date`.
    func markProved(_ session: SessionID, at date: Date) async throws
    /// Appends an audit event in the repository's transaction.
    func append(_ audit: AuditAppend) async throws
    /// Spends the locked, unspent token `spent` and inserts its successor, renewing the session.
    func rotate(spending spent: UUID, successor: RefreshTokenRecord, renewing session: SessionID, expiresAt: Date)
        async throws
    /// Records a refresh that issued no new token: the new last-use time and expiry.
    func touch(_ session: SessionID, at date: Date, expiresAt: Date) async throws
    /// Revokes one of the account's sessions; returns `false` when it is not the account's or already revoked.
    func revoke(_ session: SessionID, of account: AccountID, reason: String, at date: Date, audit: AuditAppend?)
        async throws -> Bool
    /// Revokes all of the account's active sessions and personal access tokens in one transaction, and with
    /// `recent` the credentials added since its date (`Sessions.RecentCredentials`), with the audit event `audit`
    /// makes from what it ended; returns that.
    func revokeEverything(
        of account: AccountID, reason: String, at date: Date, removing recent: Sessions.RecentCredentials?,
        audit: @escaping @Sendable (Sessions.SignedOutEverywhere) -> AuditAppend
    ) async throws -> Sessions.SignedOutEverywhere
    /// Undoes the revocation of the session at `date` for `reason`, unless the account's sign-ins were ended since.
    func reopen(_ session: SessionID, of account: AccountID, revokedFor reason: String, at date: Date) async throws
    /// Records that the person proved themselves on the account's active session at `date`, with its audit event;
    /// returns `false` when it is not the account's or not active.
    func stepUp(_ session: SessionID, of account: AccountID, at date: Date, audit: AuditAppend) async throws -> Bool
    /// The account's sessions that are neither revoked nor expired at `date`, newest first.
    func active(of account: AccountID, at date: Date) async throws -> [Session]
    /// Gives the session the account page's cookie, by the cookie's hash.
    func setWebTokenHash(_ hash: String, of session: SessionID) async throws
    /// The session whose account-page cookie has this hash.
    func find(webTokenHash hash: String) async throws -> Session?
}
