import Foundation
import SocialTokens
import Testing

/// A verifier wired to a fake provider and a test clock, with well-formed claims for each provider that a test
/// changes one member of at a time.
struct Fixture {
    static let googleClientID = "1234-ios.apps.googleusercontent.com"
    static let appleBundleID = "app.hale.ios"
    static let facebookAppID = "987654321"
    /// A secret with characters that must be percent-encoded in a query.
    static let facebookAppSecret = "s3cr3t+/&="
    static let googleKeys = "https://keys.test/google"
    static let googleTokenInfo = "https://google.test/tokeninfo"
    static let googleUserInfo = "https://google.test/userinfo"
    static let appleKeys = "https://keys.test/apple"
    static let facebookKeys = "https://keys.test/facebook"
    static let graph = "https://graph.test"
    static let debugToken = "https://graph.test/v22.0/debug_token"
    static let me = "https://graph.test/v22.0/me"
    static let facebookUserID = "10215241773831025"
    static let firebaseProject = "hale-petwash"
    static let firebaseCertificates = "https://keys.test/firebase"
    static let firebaseUID = "kZ3pQ9xYb2T7mVn4Rs8LwE1cHf62"

    let clock = TestClock()
    let provider = FakeProvider()
    let configuration: SocialProvidersConfiguration
    let verifier: SocialTokenVerifier

    /// A fixture whose three key sets publish `TestKeys.rsa` as `google-1`, `apple-1` and `facebook-1`, with
    /// `Cache-Control: max-age=3600`.
    init(configure: (inout SocialProvidersConfiguration) -> Void = { _ in }) async {
        var configuration = SocialProvidersConfiguration(
            googleClientIDs: ["web.apps.googleusercontent.com", Self.googleClientID],
            appleAudiences: [Self.appleBundleID, "app.hale.web"], facebookAppID: Self.facebookAppID,
            facebookAppSecret: Self.facebookAppSecret)
        configuration.googleKeySetURL = Self.googleKeys
        configuration.googleTokenInfoURL = Self.googleTokenInfo
        configuration.googleUserInfoURL = Self.googleUserInfo
        configuration.appleKeySetURL = Self.appleKeys
        configuration.facebookKeySetURL = Self.facebookKeys
        configuration.facebookGraphURL = Self.graph + "/"
        configuration.firebaseProjectID = Self.firebaseProject
        configuration.firebaseCertificatesURL = Self.firebaseCertificates
        configure(&configuration)
        self.configuration = configuration
        let clock = self.clock
        verifier = SocialTokenVerifier(configuration: configuration, http: provider, now: { clock.now() })
        for (url, kid) in [
            (Self.googleKeys, "google-1"), (Self.appleKeys, "apple-1"), (Self.facebookKeys, "facebook-1"),
        ] {
            await publish(url, [TestKeySet.rsa(TestKeys.rsa.publicKey, kid: kid)])
        }
        await publishCertificates(["firebase-1": TestCertificates.rsa])
    }

    /// Serves `certificates` (PEMs by `kid`) at the Firebase certificate URL with `cacheControl`, as Google serves
    /// its securetoken certificates.
    func publishCertificates(_ certificates: [String: Any], cacheControl: String? = "public, max-age=22306") async {
        let headers = cacheControl.map { [("Cache-Control", $0)] } ?? []
        let body = try! JSONSerialization.data(withJSONObject: certificates, options: [.sortedKeys])
        await provider.answer(
            Self.firebaseCertificates, with: SocialHTTPResponse(status: 200, headers: headers, body: Array(body)))
    }

    /// Serves `keys` at `url` with `cacheControl`.
    func publish(_ url: String, _ keys: [Any], cacheControl: String? = "public, max-age=3600") async {
        let headers = cacheControl.map { [("Cache-Control", $0)] } ?? []
        await provider.answer(
            url, with: SocialHTTPResponse(status: 200, headers: headers, body: TestKeySet.document(keys)))
    }

    /// Seconds since 1970 of the test clock, moved by `offset`.
    func time(_ offset: TimeInterval = 0) -> TimeInterval {
        clock.now().timeIntervalSince1970 + offset
    }

    /// The claims of a Google ID token for an account with a verified Gmail address.
    func googleClaims() -> [String: Any] {
        [
            "iss": "https://accounts.google.com", "azp": "1234-android.apps.googleusercontent.com",
            "aud": Self.googleClientID, "sub": "110169484474386276334", "email": "ada@gmail.com",
            "email_verified": true, "name": "Ada Lovelace", "iat": time(-10), "exp": time(3590),
        ]
    }

    /// The claims of an Apple identity token as an iOS app receives it at the first sign-in.
    func appleClaims() -> [String: Any] {
        [
            "iss": "https://appleid.apple.com", "aud": Self.appleBundleID, "sub": "001234.abcdef0123456789.1234",
            "email": "ada@example.com", "email_verified": true, "iat": time(-10), "exp": time(86_390),
            "auth_time": time(-12), "nonce_supported": true,
        ]
    }

    /// The claims of a Facebook Limited Login token.
    func limitedLoginClaims() -> [String: Any] {
        [
            "iss": "https://www.facebook.com", "aud": Self.facebookAppID, "sub": Self.facebookUserID,
            "email": "ada@example.com", "name": "Ada Lovelace", "iat": time(-10), "exp": time(3590),
            "jti": "5b0c2f1e-4c1a-4d1f-9a0e-0d5e2a7b9c11", "nonce": "fb-nonce-1",
        ]
    }

    /// The claims of a Firebase ID token as the iOS and Android SDKs get it after an email sign-in five minutes ago.
    func firebaseClaims() -> [String: Any] {
        [
            "iss": "https://securetoken.google.com/\(Self.firebaseProject)", "aud": Self.firebaseProject,
            "auth_time": time(-300), "user_id": Self.firebaseUID, "sub": Self.firebaseUID, "iat": time(-10),
            "exp": time(3590), "email": "ada@example.com", "email_verified": true,
            "firebase": ["identities": ["email": ["ada@example.com"]], "sign_in_provider": "password"],
        ]
    }

    /// Makes Google's token info vouch for an access token issued to the iOS client that expires in an hour
    /// (`info` changes its members; a nil value removes one), and its user info answer `profile`.
    func serveGoogle(
        info: [String: Any?] = [:],
        profile: [String: Any] = [
            "sub": "110169484474386276334", "name": "Ada Lovelace", "email": "ada@gmail.com", "email_verified": true,
        ]
    ) async {
        var members: [String: Any] = [
            "azp": Self.googleClientID, "aud": Self.googleClientID, "sub": "110169484474386276334",
            "scope": "openid email profile", "exp": String(Int(time(3600))), "expires_in": "3599",
            "email": "ada@gmail.com", "email_verified": "true", "access_type": "online",
        ]
        for (key, value) in info { members[key] = value }
        await provider.answer(Self.googleTokenInfo, json: members)
        await provider.answer(Self.googleUserInfo, json: profile)
    }

    /// Makes the Graph API vouch for a user access token of this app that expires in an hour.
    func serveGraph(
        debugData: [String: Any] = [:], profile: [String: Any] = ["id": Fixture.facebookUserID, "name": "Ada Lovelace"]
    ) async {
        var data: [String: Any] = [
            "app_id": Self.facebookAppID, "type": "USER", "application": "Hale", "is_valid": true,
            "expires_at": Int(time(3600)), "data_access_expires_at": Int(time(7_776_000)),
            "scopes": ["public_profile", "email"], "user_id": Self.facebookUserID,
        ]
        data.merge(debugData) { $1 }
        await provider.answer(Self.debugToken, json: ["data": data])
        await provider.answer(Self.me, json: profile)
    }

    /// Expects `verify` to throw `expected`.
    func expect(
        _ expected: SocialTokenError, provider: SocialProvider, token: String, nonce: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do throws(SocialTokenError) {
            let identity = try await verifier.verify(provider: provider, token: token, nonce: nonce)
            Issue.record("expected \(expected), but \(identity.subject) signed in", sourceLocation: sourceLocation)
        } catch {
            #expect(error == expected, sourceLocation: sourceLocation)
        }
    }
}

extension Dictionary where Key == String {
    /// The dictionary with `key` set to `value`, or removed when `value` is nil.
    func with(_ key: String, _ value: Value?) -> Self {
        var copy = self
        copy[key] = value
        return copy
    }
}
