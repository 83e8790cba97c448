import SocialTokens
import Testing

@Suite("Google ID tokens")
struct GoogleIDTokenTests {
    @Test(
        "A valid ID token signs in, with either documented issuer",
        arguments: [
            "accounts.google.com", "https://accounts.google.com",
        ])
    func valid(issuer: String) async throws {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.googleClaims().with("iss", issuer), kid: "google-1")
        let identity = try await fixture.verifier.verify(provider: .google, token: token, nonce: nil)
        #expect(
            identity
                == VerifiedIdentity(
                    provider: .google, subject: "110169484474386276334", email: "ada@gmail.com", emailVerified: true,
                    isPrivateRelayEmail: false, name: "Ada Lovelace", audience: Fixture.googleClientID))
    }

    @Test("An ID token for the web client id, one of several configured, signs in")
    func otherConfiguredClient() async throws {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.googleClaims().with("aud", "web.apps.googleusercontent.com"), kid: "google-1")
        _ = try await fixture.verifier.verify(provider: .google, token: token, nonce: nil)
    }

    @Test("Expired beyond the clock skew")
    func expired() async {
        let fixture = await Fixture()
        let claims = fixture.googleClaims().with("iat", fixture.time(-3700)).with("exp", fixture.time(-61))
        await fixture.expect(.invalidToken("expired"), provider: .google, token: TestJWT.rs256(claims, kid: "google-1"))
    }

    @Test("Expired, but within the clock skew")
    func expiredWithinSkew() async throws {
        let fixture = await Fixture()
        let claims = fixture.googleClaims().with("iat", fixture.time(-3600)).with("exp", fixture.time(-59))
        _ = try await fixture.verifier.verify(
            provider: .google, token: TestJWT.rs256(claims, kid: "google-1"), nonce: nil)
    }

    @Test("Issued in the future beyond the clock skew")
    func issuedInFuture() async {
        let fixture = await Fixture()
        let claims = fixture.googleClaims().with("iat", fixture.time(61)).with("exp", fixture.time(3661))
        let token = TestJWT.rs256(claims, kid: "google-1")
        await fixture.expect(.invalidToken("issued in the future"), provider: .google, token: token)
    }

    @Test("Without iat, which Google always sends")
    func missingIssuedAt() async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.googleClaims().with("iat", nil), kid: "google-1")
        await fixture.expect(.invalidToken("missing issued-at"), provider: .google, token: token)
    }

    @Test("A not-before time beyond the clock skew")
    func notYetValid() async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.googleClaims().with("nbf", fixture.time(120)), kid: "google-1")
        await fixture.expect(.invalidToken("not yet valid"), provider: .google, token: token)
    }

    @Test("For another app's client id")
    func wrongAudience() async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(
            fixture.googleClaims().with("aud", "evil.apps.googleusercontent.com"), kid: "google-1")
        await fixture.expect(.invalidToken("wrong audience"), provider: .google, token: token)
    }

    @Test("Listing an untrusted audience beside ours")
    func extraAudience() async {
        let fixture = await Fixture()
        let audiences = [Fixture.googleClientID, "evil.apps.googleusercontent.com"]
        let token = TestJWT.rs256(fixture.googleClaims().with("aud", audiences), kid: "google-1")
        await fixture.expect(.invalidToken("wrong audience"), provider: .google, token: token)
    }

    @Test("From another issuer", arguments: ["https://appleid.apple.com", "http://accounts.google.com", "google.com"])
    func wrongIssuer(issuer: String) async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.googleClaims().with("iss", issuer), kid: "google-1")
        await fixture.expect(.invalidToken("wrong issuer"), provider: .google, token: token)
    }

    @Test("An email without email_verified is refused: Google's SDKs always send both")
    func missingEmailVerified() async {
        let fixture = await Fixture()
        let claims = fixture.googleClaims().with("email", "ada@example.com").with("email_verified", nil)
        let token = TestJWT.rs256(claims, kid: "google-1")
        await fixture.expect(.invalidToken("email without email_verified"), provider: .google, token: token)
    }

    @Test(
        "With email_verified anything but true: signs in by subject, the email is not verified",
        arguments: [false, "yes", 1] as [any Sendable])
    func unverifiedEmail(flag: any Sendable) async throws {
        let fixture = await Fixture()
        let claims = fixture.googleClaims().with("email", "ada@example.com").with("email_verified", flag)
        let token = TestJWT.rs256(claims, kid: "google-1")
        let identity = try await fixture.verifier.verify(provider: .google, token: token, nonce: nil)
        #expect(identity.subject == "110169484474386276334")
        #expect(identity.emailVerified == false)
    }

    @Test("Without a subject")
    func missingSubject() async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.googleClaims().with("sub", nil), kid: "google-1")
        await fixture.expect(.invalidToken("missing subject"), provider: .google, token: token)
    }

    @Test("A nonce the client sent must be in the token")
    func nonce() async throws {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.googleClaims().with("nonce", "n-1"), kid: "google-1")
        _ = try await fixture.verifier.verify(provider: .google, token: token, nonce: "n-1")
        await fixture.expect(.invalidToken("nonce mismatch"), provider: .google, token: token, nonce: "n-2")
        let withoutNonce = TestJWT.rs256(fixture.googleClaims(), kid: "google-1")
        await fixture.expect(.invalidToken("nonce mismatch"), provider: .google, token: withoutNonce, nonce: "n-1")
    }
}
