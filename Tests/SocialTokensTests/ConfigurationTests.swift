import SocialTokens
import Testing

@Suite("Providers that are not configured")
struct ConfigurationTests {
    @Test("No client ids, audiences or app id", arguments: SocialProvider.allCases)
    func notConfigured(provider: SocialProvider) async {
        let fixture = await Fixture {
            $0.googleClientIDs = []
            $0.appleAudiences = []
            $0.facebookAppID = nil
            $0.firebaseProjectID = nil
        }
        let token = TestJWT.rs256(fixture.googleClaims(), kid: "google-1")
        await fixture.expect(.notConfigured(provider), provider: provider, token: token)
        await fixture.expect(.notConfigured(provider), provider: provider, token: "EAAB")
        #expect(await fixture.provider.requests.isEmpty)
    }

    @Test("An empty app id is no app id")
    func emptyAppID() async {
        let fixture = await Fixture { $0.facebookAppID = "" }
        await fixture.expect(.notConfigured(.facebook), provider: .facebook, token: "EAAB")
    }

    @Test("An empty Firebase project id is no project")
    func emptyFirebaseProject() async {
        let fixture = await Fixture { $0.firebaseProjectID = "" }
        let token = TestJWT.rs256(fixture.firebaseClaims().with("aud", ""), kid: "firebase-1")
        await fixture.expect(.notConfigured(.firebase), provider: .firebase, token: token)
        #expect(await fixture.provider.requests.isEmpty)
    }

    @Test("The defaults are the providers' published endpoints")
    func defaults() {
        let configuration = SocialProvidersConfiguration()
        #expect(configuration.googleKeySetURL == "https://www.googleapis.com/oauth2/v3/certs")
        #expect(configuration.appleKeySetURL == "https://appleid.apple.com/auth/keys")
        #expect(configuration.facebookKeySetURL == "https://limited.facebook.com/.well-known/oauth/openid/jwks/")
        #expect(configuration.facebookGraphURL == "https://graph.facebook.com")
        #expect(
            configuration.firebaseCertificatesURL
                == "https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com")
        #expect(configuration.firebaseProjectID == nil)
        #expect(configuration.clockSkew == .seconds(60))
        #expect(configuration.keySetRefreshInterval == .seconds(60))
    }
}
