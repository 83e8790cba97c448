import Foundation

/// What an ID token from one provider must satisfy beyond its signature.
struct IDTokenPolicy: Sendable {
    /// How a nonce the client sent is compared with the token's `nonce` claim.
    enum NonceComparison: Sendable {
        /// The claim equals the nonce.
        case raw
        /// The claim equals the nonce or its SHA-256 in lowercase hex: Apple clients pass either to Apple.
        case rawOrSHA256Hex
    }

    /// The key set the token's `kid` is looked up in.
    let keySetURL: String
    /// How that key set is published.
    var keySetFormat: KeySetFormat = .jsonWebKeySet
    /// The accepted `iss` values.
    let issuers: Set<String>
    /// The accepted `aud` values; every audience the token lists must be one of them.
    let audiences: Set<String>
    /// Whether `iat` must be present (it is always checked when present).
    let requiresIssuedAt: Bool
    /// How a nonce is compared.
    let nonceComparison: NonceComparison
    /// How far the token's times may be off.
    let clockSkew: TimeInterval
}

extension IDTokenPolicy {
    /// Google ID tokens, as Google's "Authenticate with a backend server" guide checks them.
    static func google(_ configuration: SocialProvidersConfiguration) -> IDTokenPolicy {
        IDTokenPolicy(
            keySetURL: configuration.googleKeySetURL,
            issuers: ["accounts.google.com", "https://accounts.google.com"],
            audiences: Set(configuration.googleClientIDs), requiresIssuedAt: true, nonceComparison: .rawOrSHA256Hex,
            clockSkew: configuration.clockSkew.timeInterval)
    }

    /// Sign in with Apple identity tokens, as "Verifying a user" in Apple's documentation checks them.
    static func apple(_ configuration: SocialProvidersConfiguration) -> IDTokenPolicy {
        IDTokenPolicy(
            keySetURL: configuration.appleKeySetURL, issuers: ["https://appleid.apple.com"],
            audiences: Set(configuration.appleAudiences), requiresIssuedAt: false, nonceComparison: .rawOrSHA256Hex,
            clockSkew: configuration.clockSkew.timeInterval)
    }

    /// Sign in with Apple server-to-server notifications: Apple's key set, issuer and audiences, with `iat`
    /// required so that the notification's age can be checked.
    static func appleNotification(_ configuration: SocialProvidersConfiguration) -> IDTokenPolicy {
        IDTokenPolicy(
            keySetURL: configuration.appleKeySetURL, issuers: ["https://appleid.apple.com"],
            audiences: Set(configuration.appleAudiences), requiresIssuedAt: true, nonceComparison: .raw,
            clockSkew: configuration.clockSkew.timeInterval)
    }

    /// Firebase ID tokens, as "Verify ID tokens using a third-party JWT library" in Firebase's documentation checks
    /// them: Google's securetoken certificates, `iss` `https://securetoken.google.com/<projectID>`, `aud` the project
    /// id, `iat` required. `auth_time` and the length of `sub` are checked by the verifier.
    static func firebase(projectID: String, _ configuration: SocialProvidersConfiguration) -> IDTokenPolicy {
        IDTokenPolicy(
            keySetURL: configuration.firebaseCertificatesURL, keySetFormat: .x509Certificates,
            issuers: [firebaseIssuerPrefix + projectID], audiences: [projectID], requiresIssuedAt: true,
            nonceComparison: .raw, clockSkew: configuration.clockSkew.timeInterval)
    }

    /// What every Firebase ID token's `iss` starts with; the project id follows.
    static let firebaseIssuerPrefix = "https://securetoken.google.com/"

    /// Facebook Limited Login tokens, as "Validating the Limited Login OIDC Token" checks them.
    static func facebookLimitedLogin(appID: String, _ configuration: SocialProvidersConfiguration) -> IDTokenPolicy {
        IDTokenPolicy(
            keySetURL: configuration.facebookKeySetURL, issuers: ["https://www.facebook.com"], audiences: [appID],
            requiresIssuedAt: false, nonceComparison: .raw, clockSkew: configuration.clockSkew.timeInterval)
    }
}
