import Foundation
import Logging

/// Acts on Sign in with Apple's server-to-server notifications.
///
/// - `consent-revoked` (the person stopped using Sign in with Apple with the app) and `account-delete` (they deleted
///   their Apple ID): the Apple identity is unlinked and the tokens it signed in with are revoked. Apple has ended
///   its own tokens; the account and its other sign-in methods stay, and an account left with none can still be
///   deleted by the app's backend.
/// - `email-disabled`, `email-enabled`: forwarding to the private relay address is recorded.
///
/// A notification for an identity Hale does not know changes nothing, so a replay is harmless.
public struct AppleNotifications: Sendable {
    let verifier: any AppleNotificationVerifier
    let repository: any SocialAccountRepository
    let audit: AuditTrail
    let clock: HaleClock

    /// Verifies and applies the `payload` Apple posted.
    public func receive(_ payload: String, logger: Logger) async throws {
        let notification = try await verifier.verifyNotification(payload, logger: logger)
        guard let identity = try await repository.identity(provider: "apple", subject: notification.subject) else {
            logger.info(
                "apple notification for an unknown identity", metadata: ["kind": "\(notification.kind.rawValue)"])
            return
        }
        switch notification.kind {
        case .consentRevoked, .accountDelete:
            try await repository.unlink(identity, revokingTokensNamed: "apple sign-in", at: clock.now())
            try await audit.record(
                .appleIdentityUnlinked, AuditTrail.Subject(account: identity.accountId),
                details: ["reason": notification.kind.rawValue])
        case .emailDisabled:
            try await repository.setRelayEmailDisabled(true, of: identity.id)
        case .emailEnabled:
            try await repository.setRelayEmailDisabled(false, of: identity.id)
        }
    }
}
