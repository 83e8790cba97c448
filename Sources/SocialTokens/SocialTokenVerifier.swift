import Foundation

/// Verifies the tokens that mobile apps get from Google, Apple, Facebook and Firebase, and says who signed in.
///
/// It does no I/O of its own: key sets and the Graph API are reached through the injected ``SocialHTTPClient``, and
/// time comes from the injected clock. Key sets are cached per URL for the lifetime their `Cache-Control` gives, and
/// concurrent verifications that need the same key set share one fetch. One verifier serves the whole server.
public actor SocialTokenVerifier {
    let configuration: SocialProvidersConfiguration
    let http: any SocialHTTPClient
    let now: @Sendable () -> Date
    var keySets = KeySetCache()
    var fetchesInFlight: [String: Task<Result<KeySetDownload, SocialTokenError>, Never>] = [:]

    /// A verifier that accepts what `configuration` allows, fetches through `http` and reads the time from `now`.
    public init(
        configuration: SocialProvidersConfiguration, http: any SocialHTTPClient,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.http = http
        self.now = now
    }

    /// Verifies `token` from `provider` and returns the identity it vouches for.
    ///
    /// - `google`: an ID token, or an OAuth access token (anything not shaped as a compact JWS), checked with Google's
    ///   token info and user info. `apple`: an identity token. `facebook`: a compact JWS (three dot-separated parts) is
    ///   an iOS Limited Login token; anything else is a user access token, checked through the Graph API. `firebase`: a
    ///   Firebase ID token of the configured project.
    /// - `nonce`: what the client sent alongside the token, if anything. When given, the token must carry it (Apple
    ///   and Google: raw or as its lowercase SHA-256 hex; Facebook Limited Login: raw). Access tokens carry no
    ///   nonce, so it is not used for them. Nil: no nonce is checked.
    public func verify(provider: SocialProvider, token: String, nonce: String?) async throws(SocialTokenError)
        -> VerifiedIdentity
    {
        switch provider {
        case .google:
            guard !configuration.googleClientIDs.isEmpty else { throw .notConfigured(.google) }
            guard CompactJWS.hasCompactShape(token) else { return try await verifyGoogleAccessToken(token) }
            let claims = try await verifiedClaims(token, policy: .google(configuration), nonce: nonce)
            // Google's SDKs send email_verified whenever they send an email; a token with one and not the other is
            // not one they made.
            guard claims.claims.string("email") == nil || claims.claims.contains("email_verified") else {
                throw .invalidToken("email without email_verified")
            }
            return VerifiedIdentity(google: claims.claims, subject: claims.subject)
        case .apple:
            guard !configuration.appleAudiences.isEmpty else { throw .notConfigured(.apple) }
            let claims = try await verifiedClaims(token, policy: .apple(configuration), nonce: nonce)
            return VerifiedIdentity(apple: claims.claims, subject: claims.subject)
        case .facebook:
            guard let appID = configuration.facebookAppID, !appID.isEmpty else { throw .notConfigured(.facebook) }
            guard CompactJWS.hasCompactShape(token) else { return try await verifyFacebookAccessToken(token) }
            let policy = IDTokenPolicy.facebookLimitedLogin(appID: appID, configuration)
            let claims = try await verifiedClaims(token, policy: policy, nonce: nonce)
            return VerifiedIdentity(facebookLimitedLogin: claims.claims, subject: claims.subject)
        case .firebase:
            guard let projectID = configuration.firebaseProjectID, !projectID.isEmpty else {
                throw .notConfigured(.firebase)
            }
            return try await verifyFirebaseIDToken(token, projectID: projectID)
        }
    }

    /// How many times the key set at `url` has been fetched, successfully or not.
    public func keySetFetchCount(_ url: String) -> Int {
        keySets.fetchCount(url)
    }

    /// Parses `token`, verifies its signature with the provider's key and checks its claims against `policy`.
    private func verifiedClaims(_ token: String, policy: IDTokenPolicy, nonce: String?) async throws(SocialTokenError)
        -> (claims: JWTClaims, subject: String)
    {
        let jws = try CompactJWS(token)
        try await verifySignature(of: jws, policy: policy)
        let subject = try policy.check(jws.claims, nonce: nonce, now: now())
        return (jws.claims, subject)
    }

    /// Checks `jws`'s signature with the key its `kid` names in the provider's key set.
    func verifySignature(of jws: CompactJWS, policy: IDTokenPolicy) async throws(SocialTokenError) {
        let key = try await verificationKey(jws.header.keyID, url: policy.keySetURL, format: policy.keySetFormat)
        guard key.algorithm == jws.header.algorithm else { throw .algorithmKeyMismatch }
        try key.verify(jws.signature, for: jws.signingInput)
    }
}
