import Foundation
import Logging

/// Acts on Sign in with Apple's server-to-server notifications.
///
/// - `consent-revoked` (the person stopped using Sign in with Apple with the app): the tokens the Apple identity
///   signed in with are revoked and Apple's refresh token is forgotten (Apple has ended it); the link stays, so
///   signing in with Apple again reaches the same account.
/// - `account-delete` (they deleted their Apple ID): the same, and the identity is unlinked. The account and its
///   other sign-in methods stay; deleting it is the app's decision.
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
        guard let notification = try await verifier.verifyNotification(payload, logger: logger) else { return }
        guard let identity = try await repository.identity(provider: "apple", subject: notification.subject) else {
            logger.info(
                "apple notification for an unknown identity", metadata: ["kind": "\(notification.kind.rawValue)"])
            return
        }
        switch notification.kind {
        case .consentRevoked:
            // The person may sign in with Apple again, with the same subject: keep the link, end what it issued.
            try await repository.endAuthorization(of: identity, revokingTokensNamed: "apple sign-in", at: clock.now())
            try await audit.record(
                .appleConsentRevoked, AuditTrail.Subject(account: identity.accountId))
        case .accountDelete:
            try await repository.unlink(identity, revokingTokensNamed: "apple sign-in", at: clock.now())
            try await audit.record(.appleIdentityUnlinked, AuditTrail.Subject(account: identity.accountId))
        case .emailDisabled:
            try await repository.setRelayEmailDisabled(true, of: identity.id)
        case .emailEnabled:
            try await repository.setRelayEmailDisabled(false, of: identity.id)
        }
    }
}
