import SocialTokens
import Testing

@Suite("Facebook Limited Login tokens")
struct FacebookLimitedLoginTests {
    @Test("A valid Limited Login token signs in, without asking the Graph API")
    func valid() async throws {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.limitedLoginClaims(), kid: "facebook-1")
        let identity = try await fixture.verifier.verify(provider: .facebook, token: token, nonce: "fb-nonce-1")
        #expect(
            identity
                == VerifiedIdentity(
                    provider: .facebook, subject: Fixture.facebookUserID, email: "ada@example.com",
                    emailVerified: false, isPrivateRelayEmail: false, name: "Ada Lovelace",
                    audience: Fixture.facebookAppID))
        #expect(await fixture.provider.requests == [Fixture.facebookKeys])
    }

    @Test("A nonce that is not the one sent")
    func nonceMismatch() async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.limitedLoginClaims(), kid: "facebook-1")
        await fixture.expect(.invalidToken("nonce mismatch"), provider: .facebook, token: token, nonce: "fb-nonce-2")
    }

    @Test("A hashed nonce is not accepted: Facebook returns the nonce as given")
    func hashedNonce() async {
        let fixture = await Fixture()
        let hashed = "5e2bf57d3f40c4b6df69daf1936cb766f832374b4fc0259a7cbff06e2f70f269"
        let token = TestJWT.rs256(fixture.limitedLoginClaims().with("nonce", hashed), kid: "facebook-1")
        await fixture.expect(.invalidToken("nonce mismatch"), provider: .facebook, token: token, nonce: "fb-nonce-1")
    }

    @Test("Only the documented issuer", arguments: ["https://facebook.com", "https://limited.facebook.com"])
    func wrongIssuer(issuer: String) async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.limitedLoginClaims().with("iss", issuer), kid: "facebook-1")
        await fixture.expect(.invalidToken("wrong issuer"), provider: .facebook, token: token)
    }

    @Test("For another app")
    func wrongAudience() async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.limitedLoginClaims().with("aud", "111111111"), kid: "facebook-1")
        await fixture.expect(.invalidToken("wrong audience"), provider: .facebook, token: token)
    }

    @Test("Expired")
    func expired() async {
        let fixture = await Fixture()
        let claims = fixture.limitedLoginClaims().with("iat", fixture.time(-7200)).with("exp", fixture.time(-3600))
        await fixture.expect(
            .invalidToken("expired"), provider: .facebook, token: TestJWT.rs256(claims, kid: "facebook-1"))
    }

    @Test("Without an app secret, Limited Login still works")
    func noSecret() async throws {
        let fixture = await Fixture { $0.facebookAppSecret = nil }
        let token = TestJWT.rs256(fixture.limitedLoginClaims(), kid: "facebook-1")
        _ = try await fixture.verifier.verify(provider: .facebook, token: token, nonce: nil)
    }

    @Test("A malformed three-part token is refused as a JWS, never sent to the Graph API")
    func malformedJWS() async {
        let fixture = await Fixture()
        await fixture.expect(.invalidToken("invalid base64url"), provider: .facebook, token: "EAA.b+c.d")
        #expect(await fixture.provider.requests.isEmpty)
    }
}
