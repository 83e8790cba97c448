import Crypto
import Foundation
import SocialTokens
import Testing

@Suite("Apple identity tokens")
struct AppleIdentityTokenTests {
    private let rawNonce = "4f1c0e7a-2b9d-4c61-8f3e-9a5d7b2c6e10"

    private var hashedNonce: String {
        SHA256.hash(data: Data(rawNonce.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    @Test("The token carries the nonce the client sent, raw")
    func rawNonceMatches() async throws {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.appleClaims().with("nonce", rawNonce), kid: "apple-1")
        let identity = try await fixture.verifier.verify(provider: .apple, token: token, nonce: rawNonce)
        #expect(
            identity
                == VerifiedIdentity(
                    provider: .apple, subject: "001234.abcdef0123456789.1234", email: "ada@example.com",
                    emailVerified: true, isPrivateRelayEmail: false, name: nil, audience: Fixture.appleBundleID))
    }

    @Test("The token carries the SHA-256 hex of the nonce the client sent")
    func hashedNonceMatches() async throws {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.appleClaims().with("nonce", hashedNonce), kid: "apple-1")
        _ = try await fixture.verifier.verify(provider: .apple, token: token, nonce: rawNonce)
    }

    @Test("A nonce that matches neither way")
    func nonceMismatch() async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.appleClaims().with("nonce", hashedNonce), kid: "apple-1")
        await fixture.expect(.invalidToken("nonce mismatch"), provider: .apple, token: token, nonce: "another-nonce")
    }

    @Test("An uppercase hex digest is not the documented form")
    func uppercaseHashedNonce() async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.appleClaims().with("nonce", hashedNonce.uppercased()), kid: "apple-1")
        await fixture.expect(.invalidToken("nonce mismatch"), provider: .apple, token: token, nonce: rawNonce)
    }

    @Test("A nonce sent, but none in the token")
    func nonceAbsent() async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.appleClaims(), kid: "apple-1")
        await fixture.expect(.invalidToken("nonce mismatch"), provider: .apple, token: token, nonce: rawNonce)
    }

    @Test("Booleans as strings, and a private relay address")
    func stringFlagsAndPrivateRelay() async throws {
        let fixture = await Fixture()
        let claims = fixture.appleClaims().with("email", "x7d2k9p4qz@privaterelay.appleid.com")
            .with("email_verified", "true").with("is_private_email", "true")
        let identity = try await fixture.verifier.verify(
            provider: .apple, token: TestJWT.rs256(claims, kid: "apple-1"), nonce: nil)
        #expect(identity.emailVerified)
        #expect(identity.isPrivateRelayEmail)
        #expect(identity.email == "x7d2k9p4qz@privaterelay.appleid.com")
    }

    @Test("A relay address is recognised even without is_private_email")
    func privateRelayByDomain() async throws {
        let fixture = await Fixture()
        let claims = fixture.appleClaims().with("email", "abc@PrivateRelay.AppleID.com")
        let identity = try await fixture.verifier.verify(
            provider: .apple, token: TestJWT.rs256(claims, kid: "apple-1"), nonce: nil)
        #expect(identity.isPrivateRelayEmail)
    }

    @Test("email_verified \"false\" as a string")
    func stringFalse() async throws {
        let fixture = await Fixture()
        let claims = fixture.appleClaims().with("email_verified", "false").with("is_private_email", false)
        let identity = try await fixture.verifier.verify(
            provider: .apple, token: TestJWT.rs256(claims, kid: "apple-1"), nonce: nil)
        #expect(!identity.emailVerified)
        #expect(!identity.isPrivateRelayEmail)
    }

    @Test("No email, as after the first sign-in")
    func noEmail() async throws {
        let fixture = await Fixture()
        let claims = fixture.appleClaims().with("email", nil).with("email_verified", nil)
        let identity = try await fixture.verifier.verify(
            provider: .apple, token: TestJWT.rs256(claims, kid: "apple-1"), nonce: nil)
        #expect(identity.email == nil)
        #expect(!identity.emailVerified)
    }

    @Test("A service id, the web's audience, is accepted when configured")
    func serviceID() async throws {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.appleClaims().with("aud", "app.hale.web"), kid: "apple-1")
        _ = try await fixture.verifier.verify(provider: .apple, token: token, nonce: nil)
    }

    @Test("For another app's bundle id")
    func wrongAudience() async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.appleClaims().with("aud", "com.example.other"), kid: "apple-1")
        await fixture.expect(.invalidToken("wrong audience"), provider: .apple, token: token)
    }

    @Test("From another issuer")
    func wrongIssuer() async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.appleClaims().with("iss", "https://appleid.apple.com/"), kid: "apple-1")
        await fixture.expect(.invalidToken("wrong issuer"), provider: .apple, token: token)
    }

    @Test("Expired")
    func expired() async {
        let fixture = await Fixture()
        let claims = fixture.appleClaims().with("iat", fixture.time(-90_000)).with("exp", fixture.time(-3600))
        await fixture.expect(.invalidToken("expired"), provider: .apple, token: TestJWT.rs256(claims, kid: "apple-1"))
    }

    @Test("Without an expiry")
    func missingExpiry() async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.appleClaims().with("exp", nil), kid: "apple-1")
        await fixture.expect(.invalidToken("missing expiry"), provider: .apple, token: token)
    }

    @Test("An expiry that is not a number")
    func expiryAsString() async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.appleClaims().with("exp", "\(Int(fixture.time(3600)))"), kid: "apple-1")
        await fixture.expect(.invalidToken("missing expiry"), provider: .apple, token: token)
    }

    @Test("A Google token offered as Apple's is signed by a key Apple's set lacks")
    func googleTokenAsApple() async {
        let fixture = await Fixture()
        let token = TestJWT.rs256(fixture.googleClaims(), kid: "google-1")
        await fixture.expect(.invalidToken("unknown key id"), provider: .apple, token: token)
    }
}
