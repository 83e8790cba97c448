import Foundation
import Logging
import SocialTokens

/// `SocialIdentityVerifier` and `FirebaseIDTokenVerifier` over the SocialTokens library, with the server's settings
/// and HTTP client: one verifier, so one key set cache, for every provider.
struct ProviderTokenVerifier: SocialIdentityVerifier {
    let verifier: SocialTokenVerifier

    init(
        _ settings: HaleConfiguration.SocialSignIn, firebase: HaleConfiguration.Firebase? = nil,
        http: any SocialHTTPClient, clock: HaleClock
    ) {
        var configuration = SocialProvidersConfiguration(
            googleClientIDs: settings.googleClientIDs, appleAudiences: settings.appleAudiences,
            facebookAppID: settings.facebookAppID.isEmpty ? nil : settings.facebookAppID,
            facebookAppSecret: settings.facebookAppSecret.isEmpty ? nil : settings.facebookAppSecret)
        configuration.googleKeySetURL = settings.googleKeySetURL
        configuration.googleTokenInfoURL = settings.googleTokenInfoURL
        configuration.googleUserInfoURL = settings.googleUserInfoURL
        configuration.appleKeySetURL = settings.appleKeySetURL
        configuration.facebookGraphURL = settings.facebookGraphURL
        configuration.facebookGraphVersion = settings.facebookGraphVersion
        configuration.facebookKeySetURL = settings.facebookKeySetURL
        configuration.clockSkew = settings.clockSkew
        if let firebase {
            configuration.firebaseProjectID = firebase.projectID
            configuration.firebaseCertificatesURL = firebase.certificatesURL
        }
        verifier = SocialTokenVerifier(configuration: configuration, http: http, now: { clock.now() })
    }

    func verify(provider: String, token: String, nonce: String?, logger: Logger) async throws
        -> VerifiedSocialIdentity
    {
        // Firebase ID tokens are bearer tokens of seed 000's routes, never a social sign-in of seed 003.
        guard let provider = SocialProvider(rawValue: provider), provider != .firebase else { throw Self.notEnabled }
        do {
            let identity = try await verifier.verify(provider: provider, token: token, nonce: nonce)
            return VerifiedSocialIdentity(
                subject: identity.subject, email: identity.email, emailVerified: identity.emailVerified,
                privateRelayEmail: identity.isPrivateRelayEmail, audience: identity.audience)
        } catch .invalidToken(let reason) {
            // The reason names the failed check and holds no token, claim value or email.
            logger.notice("social token refused", metadata: ["provider": "\(provider)", "reason": "\(reason)"])
            throw HaleError(.oauthInvalidToken, .unauthenticated, message: "Invalid OAuth token or state mismatch.")
        } catch .providerUnavailable(let reason) {
            logger.warning("social provider unavailable", metadata: ["provider": "\(provider)", "reason": "\(reason)"])
            throw HaleError(
                .oauthError, .unavailable, message: "The sign-in provider cannot be reached. Try again shortly.")
        } catch .notConfigured {
            throw Self.notEnabled
        }
    }

    static let notEnabled = InvalidInput("provider", .notEnabled)
}
