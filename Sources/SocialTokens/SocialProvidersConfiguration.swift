/// What ``SocialTokenVerifier`` accepts, and where it fetches keys and asks the Graph API.
///
/// Every endpoint is configurable so that tests can point the verifier at a fake provider.
public struct SocialProvidersConfiguration: Sendable {
    /// Google OAuth client ids (iOS, Android and web) that an ID token's `aud` must be one of. Empty: Google is not
    /// configured.
    public var googleClientIDs: [String]
    /// Google's JWK Set.
    public var googleKeySetURL: String = "https://www.googleapis.com/oauth2/v3/certs"
    /// Google's token info endpoint, which says whom an OAuth access token was issued to and until when.
    public var googleTokenInfoURL: String = "https://oauth2.googleapis.com/tokeninfo"
    /// Google's user info endpoint, which gives an access token's profile.
    public var googleUserInfoURL: String = "https://www.googleapis.com/oauth2/v3/userinfo"
    /// Apple bundle ids and service ids that an identity token's `aud` must be one of. Empty: Apple is not configured.
    public var appleAudiences: [String]
    /// Apple's JWK Set.
    public var appleKeySetURL: String = "https://appleid.apple.com/auth/keys"
    /// The Facebook app id: `debug_token`'s `app_id` and a Limited Login token's `aud` must equal it. Nil: Facebook is
    /// not configured.
    public var facebookAppID: String?
    /// The Facebook app secret. The app token for `debug_token` is `appID|appSecret`, and `/me` is called with an
    /// `appsecret_proof`. Nil: Facebook access tokens are not accepted (Limited Login tokens still are).
    public var facebookAppSecret: String?
    /// The Graph API origin, without a version; ``facebookGraphVersion`` is appended to it.
    public var facebookGraphURL: String = "https://graph.facebook.com"
    /// The Graph API version that `debug_token` and `/me` are called with, pinned so that Facebook's default
    /// version changing cannot change the answers' shape. Empty: unversioned paths (the app's default version).
    public var facebookGraphVersion: String = "v22.0"
    /// Facebook's Limited Login JWK Set.
    public var facebookKeySetURL: String = "https://limited.facebook.com/.well-known/oauth/openid/jwks/"
    /// The Firebase project whose ID tokens are accepted: their `aud`, and their `iss` after
    /// `https://securetoken.google.com/`. Nil: Firebase is not configured.
    public var firebaseProjectID: String?
    /// Google's securetoken certificates, which sign Firebase ID tokens: X.509 PEMs keyed by `kid`.
    public var firebaseCertificatesURL: String =
        "https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
    /// How far `exp`, `iat`, `nbf`, Firebase's `auth_time` and `debug_token`'s `expires_at` may be off from this
    /// server's clock.
    public var clockSkew: Duration = .seconds(60)
    /// The oldest a Sign in with Apple server-to-server notification may be, counted from its `iat` (plus
    /// ``clockSkew``). Apple delivers notifications as the change happens, so an old one is a replay.
    public var appleNotificationMaximumAge: Duration = .seconds(3600)
    /// The shortest time between two fetches of one key set, however many unknown `kid`s arrive.
    public var keySetRefreshInterval: Duration = .seconds(60)

    /// A configuration with the given identifiers and every endpoint at the providers' published defaults.
    public init(
        googleClientIDs: [String] = [], appleAudiences: [String] = [], facebookAppID: String? = nil,
        facebookAppSecret: String? = nil, firebaseProjectID: String? = nil
    ) {
        self.googleClientIDs = googleClientIDs
        self.appleAudiences = appleAudiences
        self.facebookAppID = facebookAppID
        self.facebookAppSecret = facebookAppSecret
        self.firebaseProjectID = firebaseProjectID
    }
}
