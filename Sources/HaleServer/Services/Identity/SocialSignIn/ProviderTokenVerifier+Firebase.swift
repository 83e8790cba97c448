import Foundation
import Logging
import SocialTokens

extension ProviderTokenVerifier: FirebaseIDTokenVerifier {
    /// Verifies through the same `SocialTokenVerifier`, and so the same key set cache, as Google, Apple and Facebook.
    func verifyFirebaseIDToken(_ token: String, logger: Logger) async throws -> VerifiedFirebaseUser {
        let identity: VerifiedIdentity
        do {
            identity = try await verifier.verify(provider: .firebase, token: token, nonce: nil)
        } catch .invalidToken(let reason) {
            // The reason names the failed check and holds no token, claim value or email.
            logger.notice("firebase ID token refused", metadata: ["reason": "\(reason)"])
            // An expired ID token is the one refusal the app mends by itself: it asks Firebase for a fresh one.
            throw reason == "expired" ? HaleError.expiredToken : HaleError.invalidToken
        } catch .providerUnavailable(let reason) {
            logger.warning("firebase certificates unavailable", metadata: ["reason": "\(reason)"])
            throw HaleError(
                .oauthError, .unavailable, message: "Firebase's certificates cannot be reached. Try again shortly.")
        } catch .notConfigured {
            logger.notice("firebase ID token refused", metadata: ["reason": "firebase is not configured"])
            throw HaleError.invalidToken
        }
        // The verifier sets both for every Firebase token it accepts.
        guard let authenticatedAt = identity.authenticatedAt, let expiresAt = identity.expiresAt else {
            throw HaleError.invalidToken
        }
        return VerifiedFirebaseUser(
            uid: identity.subject, email: identity.email, emailVerified: identity.emailVerified,
            authenticatedAt: authenticatedAt, expiresAt: expiresAt)
    }
}
