import SocialTokens
import Testing

@Suite("Malformed token strings, refused before any key set is fetched")
struct MalformedTokenTests {
    private static let header = TestJWT.encodeJSON(["alg": "RS256", "kid": "google-1"])
    private static let claims = TestJWT.encodeJSON(["sub": "1"])

    @Test(
        "Refused for its structure",
        arguments: [
            ("eyJhbGciOiJSUzI1NiJ9", "not a compact JWS"),
            ("\(MalformedTokenTests.header).\(MalformedTokenTests.claims)", "not a compact JWS"),
            ("\(MalformedTokenTests.header).\(MalformedTokenTests.claims).c2ln.c2ln", "not a compact JWS"),
            (".\(MalformedTokenTests.claims).c2ln", "not a compact JWS"),
            ("\(MalformedTokenTests.header)..c2ln", "not a compact JWS"),
            ("", "not a compact JWS"),
            ("\(MalformedTokenTests.header).\(MalformedTokenTests.claims)!.c2ln", "invalid base64url"),
            ("\(MalformedTokenTests.header)=.\(MalformedTokenTests.claims).c2ln", "invalid base64url"),
            ("\(MalformedTokenTests.header).\(MalformedTokenTests.claims).c2ln+/", "invalid base64url"),
            ("\(MalformedTokenTests.header).\(MalformedTokenTests.claims).c", "invalid base64url"),
            ("\(MalformedTokenTests.header).\(MalformedTokenTests.claims).c2n", "invalid base64url"),
            ("\(MalformedTokenTests.header) .\(MalformedTokenTests.claims).c2ln", "invalid base64url"),
            ("\(TestBase64URL.encode(Array("not json".utf8))).\(MalformedTokenTests.claims).c2ln", "invalid header"),
            ("\(TestBase64URL.encode(Array("[1]".utf8))).\(MalformedTokenTests.claims).c2ln", "invalid header"),
            ("\(MalformedTokenTests.header).\(TestBase64URL.encode(Array("{\"sub\":".utf8))).c2ln", "invalid claims"),
            ("\(MalformedTokenTests.header).\(TestBase64URL.encode(Array("\"sub\"".utf8))).c2ln", "invalid claims"),
            ("\(MalformedTokenTests.header).\(TestBase64URL.encode([0xFF, 0xFE])).c2ln", "invalid claims"),
        ])
    func malformed(token: String, reason: String) async {
        let fixture = await Fixture()
        // Google takes anything not shaped as a JWS as an OAuth access token, asked of its token info.
        if reason != "not a compact JWS" {
            await fixture.expect(.invalidToken(reason), provider: .google, token: token)
        }
        await fixture.expect(.invalidToken(reason), provider: .apple, token: token)
        await fixture.expect(.invalidToken(reason), provider: .firebase, token: token)
        #expect(await fixture.provider.requests.isEmpty)
    }

    @Test("A token longer than 16 KiB")
    func tooLong() async {
        let fixture = await Fixture()
        let token = "\(Self.header).\(String(repeating: "A", count: 16 * 1024)).c2ln"
        await fixture.expect(.invalidToken("token too long"), provider: .google, token: token)
    }

    @Test("The reasons never repeat the token, its signature or the email")
    func reasonsAreSafe() async {
        let fixture = await Fixture()
        let claims = fixture.googleClaims().with("aud", "evil").with("email", "victim@example.com")
        let token = TestJWT.rs256(claims, kid: "google-1")
        do throws(SocialTokenError) {
            _ = try await fixture.verifier.verify(provider: .google, token: token, nonce: nil)
            Issue.record("accepted")
        } catch {
            let text = "\(error)"
            #expect(!text.contains("victim"))
            for part in token.split(separator: ".") { #expect(!text.contains(part)) }
        }
    }
}
