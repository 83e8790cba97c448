import Foundation
import SocialTokens
import Testing

/// Firebase ID tokens, checked as Firebase's "Verify ID tokens using a third-party JWT library" lists, against
/// Google's securetoken certificates: one test per reason a token is refused.
@Suite("Firebase ID tokens")
struct FirebaseIDTokenTests {
    private func token(_ claims: [String: Any], kid: String = "firebase-1") -> String {
        TestJWT.rs256(claims, kid: kid)
    }

    @Test("A valid ID token proves its uid, with the email, sign-in time and expiry it carries")
    func valid() async throws {
        let fixture = await Fixture()
        let identity = try await fixture.verifier.verify(
            provider: .firebase, token: token(fixture.firebaseClaims()), nonce: nil)
        var expected = VerifiedIdentity(
            provider: .firebase, subject: Fixture.firebaseUID, email: "ada@example.com", emailVerified: true,
            isPrivateRelayEmail: false, name: nil, audience: Fixture.firebaseProject)
        expected.authenticatedAt = Date(timeIntervalSince1970: fixture.time(-300))
        expected.expiresAt = Date(timeIntervalSince1970: fixture.time(3590))
        #expect(identity == expected)
    }

    @Test("An anonymous user's token, without an email, proves its uid")
    func anonymous() async throws {
        let fixture = await Fixture()
        let claims = fixture.firebaseClaims().with("email", nil).with("email_verified", nil)
            .with("firebase", ["identities": [:] as [String: Any], "sign_in_provider": "anonymous"])
        let identity = try await fixture.verifier.verify(provider: .firebase, token: token(claims), nonce: nil)
        #expect(identity.subject == Fixture.firebaseUID)
        #expect(identity.email == nil && !identity.emailVerified)
    }

    @Test("A uid of 128 characters, the most Firebase allows, is accepted")
    func longestUID() async throws {
        let fixture = await Fixture()
        let uid = String(repeating: "é", count: 128)
        let identity = try await fixture.verifier.verify(
            provider: .firebase, token: token(fixture.firebaseClaims().with("sub", uid)), nonce: nil)
        #expect(identity.subject == uid)
    }

    @Test("A uid of 129 characters")
    func subjectTooLong() async {
        let fixture = await Fixture()
        let claims = fixture.firebaseClaims().with("sub", String(repeating: "a", count: 129))
        await fixture.expect(.invalidToken("subject too long"), provider: .firebase, token: token(claims))
    }

    @Test("Without a uid, or with an empty one", arguments: [nil, ""] as [String?])
    func missingSubject(sub: String?) async {
        let fixture = await Fixture()
        let claims = fixture.firebaseClaims().with("sub", sub)
        await fixture.expect(.invalidToken("missing subject"), provider: .firebase, token: token(claims))
    }

    @Test("Longer than 8 KiB, refused before it is decoded or a key is fetched")
    func tooLong() async {
        let fixture = await Fixture()
        let claims = fixture.firebaseClaims().with("padding", String(repeating: "x", count: 6200))
        let long = token(claims)
        #expect(long.utf8.count > 8 * 1024 && long.utf8.count < 16 * 1024)
        await fixture.expect(.invalidToken("token too long"), provider: .firebase, token: long)
        #expect(await fixture.provider.requests.isEmpty)
    }

    @Test("A Firebase custom token sent back where an ID token is due")
    func customToken() async {
        let fixture = await Fixture()
        let claims: [String: Any] = [
            "iss": "svc@hale-petwash.iam.gserviceaccount.com", "sub": "svc@hale-petwash.iam.gserviceaccount.com",
            "aud": FirebaseCustomTokenSigner.audience, "uid": Fixture.firebaseUID, "iat": fixture.time(),
            "exp": fixture.time(3600),
        ]
        await fixture.expect(
            .invalidToken("a custom token, not an ID token"), provider: .firebase, token: token(claims, kid: "sa-1"))
        #expect(await fixture.provider.requests.isEmpty)
    }

    @Test("Signed with ES256, which Firebase never uses, even by a key Google published")
    func es256() async {
        let fixture = await Fixture()
        let token = TestJWT.make(
            header: ["alg": "ES256", "kid": "firebase-1", "typ": "JWT"], claims: fixture.firebaseClaims(),
            signer: .p256(TestKeys.p256))
        await fixture.expect(.invalidToken("unsupported algorithm"), provider: .firebase, token: token)
        #expect(await fixture.provider.requests.isEmpty)
    }

    @Test("HS256 keyed with the certificate, or no signature at all", arguments: ["HS256", "none"])
    func notRS256(algorithm: String) async {
        let fixture = await Fixture()
        let token = TestJWT.make(
            header: ["alg": algorithm, "kid": "firebase-1"], claims: fixture.firebaseClaims(),
            signer: algorithm == "none" ? .empty : .hmac(Array(TestCertificates.rsa.utf8)))
        await fixture.expect(.invalidToken("unsupported algorithm"), provider: .firebase, token: token)
    }

    @Test("With a critical header extension")
    func criticalHeader() async {
        let fixture = await Fixture()
        let token = TestJWT.make(
            header: ["alg": "RS256", "kid": "firebase-1", "crit": ["exp"]], claims: fixture.firebaseClaims(),
            signer: .rsa(TestKeys.rsa))
        await fixture.expect(.invalidToken("unsupported critical header"), provider: .firebase, token: token)
    }

    @Test("Without a kid")
    func missingKeyID() async {
        let fixture = await Fixture()
        let token = TestJWT.make(
            header: ["alg": "RS256", "typ": "JWT"], claims: fixture.firebaseClaims(), signer: .rsa(TestKeys.rsa))
        await fixture.expect(.invalidToken("missing key id"), provider: .firebase, token: token)
    }

    @Test("A kid that is not in Google's certificate set")
    func unknownKeyID() async {
        let fixture = await Fixture()
        await fixture.expect(
            .invalidToken("unknown key id"), provider: .firebase, token: token(fixture.firebaseClaims(), kid: "x"))
    }

    @Test("Signed by another key than the certificate's")
    func badSignature() async {
        let fixture = await Fixture()
        let forged = TestJWT.rs256(fixture.firebaseClaims(), kid: "firebase-1", key: TestKeys.otherRSA)
        await fixture.expect(.invalidToken("bad signature"), provider: .firebase, token: forged)
    }

    @Test(
        "From another project, or another issuer",
        arguments: [
            "https://securetoken.google.com/other-project", "https://securetoken.google.com/",
            "https://accounts.google.com",
            "https://session.firebase.google.com/hale-petwash",
        ])
    func wrongIssuer(issuer: String) async {
        let fixture = await Fixture()
        let claims = fixture.firebaseClaims().with("iss", issuer)
        await fixture.expect(.invalidToken("wrong issuer"), provider: .firebase, token: token(claims))
    }

    @Test("For another project", arguments: ["other-project", "hale-petwash-2", ""])
    func wrongAudience(audience: String) async {
        let fixture = await Fixture()
        let claims = fixture.firebaseClaims().with("aud", audience)
        await fixture.expect(.invalidToken("wrong audience"), provider: .firebase, token: token(claims))
    }

    @Test("Without an expiry")
    func missingExpiry() async {
        let fixture = await Fixture()
        await fixture.expect(
            .invalidToken("missing expiry"), provider: .firebase,
            token: token(fixture.firebaseClaims().with("exp", nil)))
    }

    @Test("Expired beyond the clock skew; expired within it is accepted")
    func expired() async throws {
        let fixture = await Fixture()
        let expired = fixture.firebaseClaims().with("iat", fixture.time(-3700)).with("exp", fixture.time(-61))
        await fixture.expect(.invalidToken("expired"), provider: .firebase, token: token(expired))
        let withinSkew = fixture.firebaseClaims().with("iat", fixture.time(-3600)).with("exp", fixture.time(-59))
        _ = try await fixture.verifier.verify(provider: .firebase, token: token(withinSkew), nonce: nil)
    }

    @Test("Without iat")
    func missingIssuedAt() async {
        let fixture = await Fixture()
        let claims = fixture.firebaseClaims().with("iat", nil)
        await fixture.expect(.invalidToken("missing issued-at"), provider: .firebase, token: token(claims))
    }

    @Test("Issued in the future beyond the clock skew; within it is accepted")
    func issuedInFuture() async throws {
        let fixture = await Fixture()
        let future = fixture.firebaseClaims().with("iat", fixture.time(61)).with("auth_time", fixture.time(0))
        await fixture.expect(.invalidToken("issued in the future"), provider: .firebase, token: token(future))
        let withinSkew = fixture.firebaseClaims().with("iat", fixture.time(59)).with("auth_time", fixture.time(59))
        _ = try await fixture.verifier.verify(provider: .firebase, token: token(withinSkew), nonce: nil)
    }

    @Test("Authenticated exactly the clock skew ahead: accepted")
    func authenticatedAtTheSkew() async throws {
        let fixture = await Fixture()
        let claims = fixture.firebaseClaims().with("iat", fixture.time(60)).with("auth_time", fixture.time(60))
        _ = try await fixture.verifier.verify(provider: .firebase, token: token(claims), nonce: nil)
    }

    @Test("A token of exactly 8 KiB is read, not refused for its length")
    func longestToken() async {
        let fixture = await Fixture()
        let text = String(repeating: "a", count: SocialTokenVerifier.maximumFirebaseIDTokenLength)
        await fixture.expect(.invalidToken("not a compact JWS"), provider: .firebase, token: text)
    }

    @Test("Without auth_time, or with one that is not a number", arguments: [nil, "yesterday"] as [String?])
    func missingAuthTime(authTime: String?) async {
        let fixture = await Fixture()
        let claims = fixture.firebaseClaims().with("auth_time", authTime)
        await fixture.expect(.invalidToken("missing auth time"), provider: .firebase, token: token(claims))
    }

    @Test("Signed in in the future beyond the clock skew")
    func authenticatedInFuture() async {
        let fixture = await Fixture()
        let claims = fixture.firebaseClaims().with("auth_time", fixture.time(61))
        await fixture.expect(.invalidToken("authenticated in the future"), provider: .firebase, token: token(claims))
    }

    @Test("A nonce the client sends is not looked for: Firebase ID tokens carry none")
    func nonceIgnored() async throws {
        let fixture = await Fixture()
        _ = try await fixture.verifier.verify(provider: .firebase, token: token(fixture.firebaseClaims()), nonce: "n")
    }
}
