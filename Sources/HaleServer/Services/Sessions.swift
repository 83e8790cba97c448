import Foundation
import Logging

/// Starts, refreshes and revokes sessions: the core every sign-in method uses.
///
/// A session is a refresh-token family. Every refresh spends the presented token and issues its successor. A spent
/// token presented again means it was copied, so the whole family is revoked — except within the grace period, when
/// it is taken as a mobile app retrying a refresh whose response it lost: the unused successor is superseded and a
/// new one issued, so the family keeps exactly one live token.
public struct Sessions: Sendable {
    let repository: any SessionRepository
    let accessTokens: AccessTokens
    let lifetimes: SessionLifetimes
    let clock: HaleClock

    /// Starts a session for the account and returns its first tokens.
    public func start(account: AccountID, device: DeviceID?, signInMethod: String, rememberMe: Bool) async throws
        -> TokenPair
    {
        let now = clock.now()
        let session = Session(
            id: .random(), accountId: account, deviceId: device, signInMethod: signInMethod, rememberMe: rememberMe,
            createdAt: now, lastUsedAt: now, expiresAt: expiry(rememberMe: rememberMe, from: now),
            revokedAt: nil, revokeReason: nil)
        let refreshToken = OpaqueToken.generate()
        try await repository.transaction { repository in
            try await repository.create(session)
            try await repository.insert(Self.record(refreshToken, of: session.id, at: now))
        }
        return try await pair(for: session, refreshToken: refreshToken)
    }

    /// Exchanges a refresh token for new tokens, rotating it. Reuse is logged to `logger`, which should be the
    /// request's, so the line carries its request id.
    public func refresh(_ refreshToken: String, logger: Logger = Logger(label: "hale.sessions")) async throws
        -> TokenPair
    {
        let hash = OpaqueToken.hash(refreshToken)
        let outcome = try await repository.transaction { repository in
            try await rotate(tokenHash: hash, in: repository)
        }
        switch outcome {
        case .unknown:
            throw HaleError.invalidToken
        case .rotated(let session, let successor):
            return try await pair(for: session, refreshToken: successor)
        case .expired:
            throw HaleError.expiredToken
        case .revoked:
            throw HaleError.invalidToken
        case .reuseDetected(let session):
            logger.warning("refresh token reuse detected; session revoked", metadata: ["session": "\(session)"])
            throw HaleError.reusedToken
        }
    }

    /// The session with this identifier, if it exists.
    public func find(_ id: SessionID) async throws -> Session? {
        try await repository.find(id)
    }

    /// Revokes one of the account's sessions (logout). Returns `false` when there was nothing to revoke.
    @discardableResult
    public func revoke(_ session: SessionID, of account: AccountID, reason: String = "logout") async throws -> Bool {
        try await repository.revoke(session, of: account, reason: reason, at: clock.now())
    }

    /// Revokes every session of the account (log out everywhere). Returns how many were active.
    @discardableResult
    public func revokeAll(of account: AccountID) async throws -> Int {
        try await repository.revokeAll(of: account, reason: "logout_all", at: clock.now())
    }

    private enum RotationOutcome: Sendable {
        case unknown
        case rotated(Session, successor: String)
        case expired
        case revoked
        case reuseDetected(SessionID)
    }

    /// Runs inside the write transaction. The token is read again once its session is locked, so a refresh that
    /// waited for a racing one sees that token as spent.
    private func rotate(tokenHash: String, in repository: any SessionRepository) async throws -> RotationOutcome {
        guard let unlocked = try await repository.findToken(hash: tokenHash) else { return .unknown }
        guard let session = try await repository.findForUpdate(unlocked.sessionId), session.revokedAt == nil else {
            return .revoked
        }
        guard let presented = try await repository.findToken(hash: tokenHash) else { return .unknown }
        let now = clock.now()
        guard session.expiresAt > now else { return .expired }
        if try await repository.spend(tokenID: presented.id, reason: .rotated, at: now) == false {
            guard try await isGracefulRetry(of: presented, in: repository, at: now) else {
                _ = try await repository.revoke(
                    session.id, of: session.accountId, reason: "refresh_token_reuse", at: now)
                return .reuseDetected(session.id)
            }
            try await repository.supersedeUnspentTokens(of: session.id, at: now)
        }
        let successor = OpaqueToken.generate()
        try await repository.insert(Self.record(successor, of: session.id, at: now))
        let expiresAt = expiry(rememberMe: session.rememberMe, from: now)
        try await repository.touch(session.id, at: now, expiresAt: expiresAt)
        var renewed = session
        renewed.lastUsedAt = now
        renewed.expiresAt = expiresAt
        return .rotated(renewed, successor: successor)
    }

    /// A spent token is a retry, not a theft, when it was spent within the grace period and no later token of the
    /// family has been used since.
    private func isGracefulRetry(of token: RefreshTokenRecord, in repository: any SessionRepository, at now: Date)
        async throws -> Bool
    {
        guard let spentAt = token.spentAt,
            now.timeIntervalSince(spentAt) <= lifetimes.reuseGracePeriod.timeInterval
        else {
            return false
        }
        return try await repository.hasRotation(of: token.sessionId, after: spentAt) == false
    }

    private func pair(for session: Session, refreshToken: String) async throws -> TokenPair {
        let access = try await accessTokens.issue(
            account: session.accountId, session: session.id, device: session.deviceId,
            signInMethod: session.signInMethod)
        return TokenPair(
            sessionId: session.id, accessToken: access.token, accessTokenExpiresAt: access.expiresAt,
            refreshToken: refreshToken, refreshTokenExpiresAt: session.expiresAt)
    }

    private func expiry(rememberMe: Bool, from now: Date) -> Date {
        now.addingTimeInterval(lifetimes.refreshLifetime(rememberMe: rememberMe).timeInterval)
    }

    private static func record(_ token: String, of session: SessionID, at now: Date) -> RefreshTokenRecord {
        RefreshTokenRecord(
            id: UUID(), sessionId: session, tokenHash: OpaqueToken.hash(token), createdAt: now, spentAt: nil,
            spentReason: nil)
    }
}
