import Foundation
import Logging
import SocialTokens

extension ProviderTokenVerifier: AppleNotificationVerifier {
    func verifyNotification(_ payload: String, logger: Logger) async throws -> AppleAccountNotification? {
        do {
            let event = try await verifier.verifyAppleNotification(payload)
            return AppleAccountNotification(
                kind: Self.kind(event.kind), subject: event.subject, audience: event.audience)
        } catch .invalidToken("apple_event_unknown") {
            logger.info("apple notification of a kind Hale does not act on; acknowledged")
            return nil
        } catch .invalidToken(let reason) {
            logger.notice("apple notification refused", metadata: ["reason": "\(reason)"])
            throw HaleError(.oauthInvalidToken, .unauthenticated, message: "The notification does not verify.")
        } catch .providerUnavailable(let reason) {
            logger.warning("apple key set unavailable", metadata: ["reason": "\(reason)"])
            throw HaleError(.oauthError, .unavailable, message: "Apple's keys cannot be reached. Try again shortly.")
        } catch .notConfigured {
            throw HaleError(.oauthError, .notFound, message: "Sign in with Apple is not configured.")
        }
    }

    private static func kind(_ kind: AppleAccountEvent.Kind) -> AppleAccountNotification.Kind {
        switch kind {
        case .emailDisabled: .emailDisabled
        case .emailEnabled: .emailEnabled
        case .consentRevoked: .consentRevoked
        case .accountDelete: .accountDelete
        }
    }
}
