import Foundation

/// Personal access tokens: long-lived `<id>|<secret>` credentials for operators, tools and server-to-server use.
public struct PersonalAccessTokens: Sendable {
    /// A token that was verified: whose it is and which one.
    public struct Verified: Sendable, Equatable {
        /// The token's identifier.
        public let id: Int64
        /// The account it belongs to.
        public let accountId: AccountID
    }

    let repository: any PersonalAccessTokenRepository
    let clock: HaleClock
    /// Uses closer together than this are not recorded, so that a busy token does not write on every request.
    let lastUsedResolution: TimeInterval = 60

    /// Creates a token for the account; the returned plaintext is shown once and never stored.
    public func create(for account: AccountID, name: String) async throws -> (id: Int64, token: String) {
        let secret = OpaqueToken.generate()
        let record = PersonalAccessTokenRecord(
            id: nil, accountId: account, name: name, secretHash: OpaqueToken.hash(secret), createdAt: clock.now(),
            lastUsedAt: nil, revokedAt: nil)
        let id = try await repository.create(record)
        return (id, "\(id)|\(secret)")
    }

    /// Whether the text has the shape of a personal access token rather than a JWT.
    public static func looksLikePersonalAccessToken(_ token: String) -> Bool {
        token.contains("|")
    }

    /// Verifies a `<id>|<secret>` token, comparing the secret's hash in constant time.
    public func verify(_ token: String) async throws -> Verified {
        let parts = token.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let id = Int64(parts[0]), id > 0,
            let record = try await repository.find(id), record.revokedAt == nil,
            OpaqueToken.constantTimeEquals(record.secretHash, OpaqueToken.hash(String(parts[1])))
        else {
            throw HaleError.invalidToken
        }
        await recordUse(of: record)
        return Verified(id: id, accountId: record.accountId)
    }

    /// Revokes the token; returns `false` when it was already revoked.
    @discardableResult
    public func revoke(_ id: Int64) async throws -> Bool {
        try await repository.revoke(id, at: clock.now())
    }

    /// Best effort: failing to record a use must not fail the request it authenticates.
    private func recordUse(of record: PersonalAccessTokenRecord) async {
        let now = clock.now()
        guard let id = record.id else { return }
        if let last = record.lastUsedAt, now.timeIntervalSince(last) < lastUsedResolution { return }
        try? await repository.touch(id, at: now)
    }
}
