import Foundation
import Logging
import SocialTokens

/// `AppleAccountAPI` over the SocialTokens library's `AppleTokenClient`.
struct AppleRESTClient: AppleAccountAPI {
    let client: AppleTokenClient

    init(
        _ key: HaleConfiguration.AppleKey, settings: HaleConfiguration.SocialSignIn, http: any SocialHTTPClient,
        clock: HaleClock
    ) throws {
        var credentials = AppleCredentials(teamID: key.teamID, keyID: key.keyID, privateKeyPEM: key.privateKeyPEM)
        credentials.tokenURL = settings.appleTokenURL
        credentials.revokeURL = settings.appleRevokeURL
        do {
            client = try AppleTokenClient(credentials: credentials, http: http, now: { clock.now() })
        } catch {
            throw ConfigError("socialSignIn.apple.privateKey must be the .p8 file's PEM: a P-256 PKCS#8 key")
        }
    }

    func exchange(authorizationCode: String, clientID: String, logger: Logger) async throws
        -> (refreshToken: String, subject: String)
    {
        do {
            let tokens = try await client.exchange(authorizationCode: authorizationCode, clientID: clientID)
            return (tokens.refreshToken, tokens.subject)
        } catch .invalidToken(let reason) {
            logger.notice("apple authorization code refused", metadata: ["reason": "\(reason)"])
            throw HaleError(.oauthInvalidToken, .unauthenticated, message: "Invalid OAuth token or state mismatch.")
        } catch {
            logger.warning("apple token endpoint unavailable", metadata: ["reason": "\(error)"])
            throw HaleError(
                .oauthError, .unavailable, message: "Sign in with Apple cannot be reached. Try again shortly.")
        }
    }

    func revoke(refreshToken: String, clientID: String) async throws {
        do {
            try await client.revoke(refreshToken: refreshToken, clientID: clientID)
        } catch .invalidToken {
            throw AppleTokenRefused()
        } catch {
            throw HaleError(.oauthError, .unavailable, message: "Apple's revocation endpoint failed: \(error)")
        }
    }
}
