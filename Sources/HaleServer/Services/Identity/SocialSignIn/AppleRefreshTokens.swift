import Foundation
import Logging

/// Apple refresh tokens: obtained from an app's authorization code at sign-in, kept sealed under the key-encryption
/// key, and revoked when the account is deleted — retried with backoff until Apple confirms, so none is forgotten.
public struct AppleRefreshTokens: Sendable {
    let api: any AppleAccountAPI
    let sealer: SecretSealer?
    /// The box of `socialSignIn.apple.tokenEncryptionKey`, for tokens sealed before the key-encryption key.
    let legacy: SecretBox?
    let revocations: any AppleRevocationRepository
    let clock: HaleClock

    static let purpose = "apple-refresh-token"
    /// How long a claimed revocation is left to the instance that claimed it.
    static let lease: TimeInterval = 300
    static let maximumBackoff: TimeInterval = 86_400

    /// Exchanges the code for a refresh token of `subject`, sealed; the code must belong to the identity token's user.
    func obtain(authorizationCode: String, clientID: String, subject: String, logger: Logger) async throws -> String {
        let tokens = try await api.exchange(authorizationCode: authorizationCode, clientID: clientID, logger: logger)
        guard tokens.subject == subject else {
            logger.notice("apple authorization code belongs to another user than the identity token")
            throw HaleError(.oauthInvalidToken, .unauthenticated, message: "Invalid OAuth token or state mismatch.")
        }
        return try SealedSecret.seal(tokens.refreshToken, purpose: Self.purpose, sealer: sealer)
    }

    /// Queues a sealed token for revocation, due now.
    func enqueue(_ sealed: String, clientID: String) async throws {
        let now = clock.now()
        try await revocations.enqueue(
            AppleTokenRevocation(
                id: UUID(), clientId: clientID, refreshTokenSealed: sealed, attempts: 0, nextAttemptAt: now,
                lastError: nil, createdAt: now))
    }

    /// Revokes the queued tokens that are due; a failure is tried again later, each time waiting twice as long, up
    /// to a day. Returns how many were revoked and how many failed.
    @discardableResult
    public func revokeDue(limit: Int = 20, logger: Logger) async throws -> (revoked: Int, failed: Int) {
        let now = clock.now()
        let claimed = try await revocations.claimDue(
            at: now, lease: now.addingTimeInterval(Self.lease), limit: limit)
        var revoked = 0
        for revocation in claimed {
            if await revoke(revocation, logger: logger) {
                try await revocations.complete(revocation.id)
                revoked += 1
            }
        }
        return (revoked, claimed.count - revoked)
    }

    /// How many tokens wait to be revoked.
    public func pendingCount() async throws -> Int {
        try await revocations.pendingCount()
    }

    /// The token `sealed` holds: sealed under the key-encryption key, or by the box from before it.
    func open(_ sealed: String) -> String? {
        if SecretSealer.isSealed(sealed) { return sealer?.openText(sealed, purpose: Self.purpose) }
        return legacy?.open(sealed, purpose: Self.purpose)
    }

    /// Whether the row is done with: revoked, or never revocable, which retrying cannot change.
    private func revoke(_ revocation: AppleTokenRevocation, logger: Logger) async -> Bool {
        guard let token = open(revocation.refreshTokenSealed) else {
            logger.error("apple token revocation dropped: the sealed token does not open with the configured key")
            return true
        }
        let failure: String
        do {
            try await api.revoke(refreshToken: token, clientID: revocation.clientId)
            return true
        } catch is AppleTokenRefused {
            logger.notice("apple token revocation: apple no longer knows the token; nothing left to revoke")
            return true
        } catch let error as HaleError {
            failure = error.message
        } catch {
            failure = "Apple could not be reached."
        }
        let backoff = min(Self.maximumBackoff, 60 * pow(2, Double(min(revocation.attempts, 16))))
        logger.warning(
            "apple token revocation failed; will retry",
            metadata: ["attempts": "\(revocation.attempts + 1)", "retryInSeconds": "\(Int(backoff))"])
        try? await revocations.retry(revocation.id, at: clock.now().addingTimeInterval(backoff), error: failure)
        return false
    }
}
