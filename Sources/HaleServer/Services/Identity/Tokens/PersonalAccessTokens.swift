import ByteEncoding
import Foundation

/// Personal access tokens: long-lived `<id>|<secret>` credentials for operators, tools, server-to-server use and
/// seed 003's social sign-in. Their owner lists and revokes them; they may expire.
public struct PersonalAccessTokens: Sendable {
    /// A token that was verified: whose it is and which one.
    public struct Verified: Sendable, Equatable {
        /// The token's identifier.
        public let id: Int64
        /// The account it belongs to.
        public let accountId: AccountID
        /// When the social sign-in that issued it happened; nil for a token an operator or a tool made.
        public let signedInAt: Date?
        /// The device whose sign-in it was issued to; nil for a token an operator or a tool made.
        public var deviceId: DeviceID? = nil
        /// When it was made.
        public var createdAt: Date? = nil
        /// When it stops working, if it does.
        public var expiresAt: Date? = nil
    }

    let repository: any PersonalAccessTokenRepository
    let audit: AuditTrail
    let uses: PersonalAccessTokenUses
    let clock: HaleClock

    /// The most tokens one listing returns.
    public static let listLimit = 500

    /// Creates a token for the account; the returned plaintext is shown once and never stored. With `expiresIn`
    /// it stops working after that long; `signInMethod` names the social sign-in that issues it, if one does.
    public func create(
        for account: AccountID, name: String, expiresIn lifetime: Duration? = nil, signInMethod: String? = nil
    ) async throws -> (id: Int64, token: String) {
        let secret = OpaqueToken.generate()
        let now = clock.now()
        let record = PersonalAccessTokenRecord(
            id: nil, accountId: account, name: name, secretHash: OpaqueToken.hash(secret), createdAt: now,
            expiresAt: lifetime.map { now.addingTimeInterval($0.timeInterval) }, signInMethod: signInMethod)
        let id = try await repository.create(record)
        return (id, "\(id)|\(secret)")
    }

    /// Whether the text has the shape of a personal access token rather than a JWT.
    public static func looksLikePersonalAccessToken(_ token: String) -> Bool {
        token.contains("|")
    }

    /// Verifies a `<id>|<secret>` token, comparing the secret's hash in constant time: `TOKEN_INVALID` when it is
    /// unknown, wrong or revoked, `TOKEN_EXPIRED` when its secret is right but its time is up. It reads the
    /// database and never writes: the use is remembered in memory (`PersonalAccessTokenUses`).
    public func verify(_ token: String) async throws -> Verified {
        let parts = token.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let id = Int64(parts[0]), id > 0,
            let record = try await repository.find(id), record.revokedAt == nil,
            ConstantTime.equals(record.secretHash, OpaqueToken.hash(String(parts[1])))
        else {
            throw HaleError.invalidToken
        }
        let now = clock.now()
        // Only after the secret matched: whoever does not hold it learns nothing about the token's expiry.
        if let expiry = record.expiresAt, expiry <= now { throw HaleError.expiredToken }
        uses.record(id, at: now)
        return Verified(
            id: id, accountId: record.accountId, signedInAt: record.signInMethod == nil ? nil : record.createdAt,
            deviceId: record.deviceId, createdAt: record.createdAt, expiresAt: record.expiresAt)
    }

    /// The account's tokens that still work, newest first, at most `limit` (1 to `listLimit`).
    public func active(of account: AccountID, limit: Int = 100) async throws -> [PersonalAccessToken] {
        try await list(account, activeAt: clock.now(), limit: limit)
    }

    /// Every token of the account, revoked and expired ones included, newest first: what an operator sees.
    public func all(of account: AccountID, limit: Int = listLimit) async throws -> [PersonalAccessToken] {
        try await list(account, activeAt: nil, limit: limit)
    }

    private func list(_ account: AccountID, activeAt date: Date?, limit: Int) async throws -> [PersonalAccessToken] {
        guard (1...Self.listLimit).contains(limit) else {
            throw InvalidInput("limit", .form("between 1 and \(Self.listLimit)"))
        }
        return try await repository.tokens(of: account, activeAt: date, limit: limit).compactMap { record in
            guard let id = record.id else { return nil }
            let lastUsedAt = [record.lastUsedAt, uses.pendingUse(of: id)].compactMap { $0 }.max()
            return PersonalAccessToken(record, id: id, lastUsedAt: lastUsedAt)
        }
    }

    /// The token with this identifier, whoever owns it: for operators.
    public func find(_ id: Int64) async throws -> PersonalAccessToken? {
        try await repository.find(id).map { PersonalAccessToken($0, id: id, lastUsedAt: $0.lastUsedAt) }
    }

    /// Revokes the token that authenticated a logout; returns `false` when it was already revoked.
    @discardableResult
    public func revoke(_ id: Int64) async throws -> Bool {
        try await repository.revoke(id, at: clock.now())
    }

    /// Who revokes a token, as the audit trail records it.
    public enum Revoker: String, Sendable {
        /// The account's owner, through the API.
        case owner
        /// An operator, with `hale tokens revoke`.
        case `operator`
    }

    /// Revokes one of the account's tokens and audits it; returns `false`, changing nothing, when the token is not
    /// the account's or is already revoked.
    public func revoke(_ id: Int64, of account: AccountID, by revoker: Revoker, session: SessionID? = nil)
        async throws -> Bool
    {
        let event = audit.prepare(
            .personalAccessTokenRevoked, AuditTrail.Subject(account: account, session: session),
            details: ["tokenId": String(id), "by": revoker.rawValue])
        return try await repository.revoke(id, of: account, at: clock.now(), audit: event)
    }

    /// Writes the uses remembered since the last call; returns how many tokens' uses were written. Uses whose
    /// write failed are kept for the next call.
    @discardableResult
    public func recordPendingUses() async throws -> Int {
        let pending = uses.take()
        guard !pending.isEmpty else { return 0 }
        do {
            try await repository.recordUses(pending)
        } catch {
            uses.putBack(pending)
            throw error
        }
        return pending.count
    }
}
