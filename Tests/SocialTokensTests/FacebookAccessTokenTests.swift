import Crypto
import Foundation
import SocialTokens
import Testing

@Suite("Facebook user access tokens")
struct FacebookAccessTokenTests {
    /// The shape of a Facebook user access token, with a character that must be percent-encoded.
    private let token = "EAAGm0PX4ZCpsBA+ZBZC2t1ZAx"

    @Test("A valid access token signs in with the /me profile")
    func valid() async throws {
        let fixture = await Fixture()
        await fixture.serveGraph(profile: [
            "id": Fixture.facebookUserID, "name": "Ada Lovelace", "email": "ada@fb.test",
        ])
        let identity = try await fixture.verifier.verify(provider: .facebook, token: token, nonce: "ignored")
        #expect(
            identity
                == VerifiedIdentity(
                    provider: .facebook, subject: Fixture.facebookUserID, email: "ada@fb.test", emailVerified: false,
                    isPrivateRelayEmail: false, name: "Ada Lovelace"))
    }

    @Test("The Graph API is asked with the pinned version, encoded values and the appsecret_proof")
    func requests() async throws {
        let fixture = await Fixture()
        await fixture.serveGraph()
        _ = try await fixture.verifier.verify(provider: .facebook, token: token, nonce: nil)
        let proof = HMAC<SHA256>.authenticationCode(
            for: Data(token.utf8), using: SymmetricKey(data: Data(Fixture.facebookAppSecret.utf8))
        ).map { String(format: "%02x", $0) }.joined()
        #expect(
            await fixture.provider.requests == [
                Fixture.debugToken + "?input_token=EAAGm0PX4ZCpsBA%2BZBZC2t1ZAx"
                    + "&access_token=987654321%7Cs3cr3t%2B%2F%26%3D",
                Fixture.me + "?fields=id%2Cname%2Cemail&access_token=EAAGm0PX4ZCpsBA%2BZBZC2t1ZAx"
                    + "&appsecret_proof=\(proof)",
            ])
    }

    @Test("Older Graph answers with numeric ids")
    func numericIDs() async throws {
        let fixture = await Fixture()
        await fixture.serveGraph(
            debugData: ["app_id": Int(Fixture.facebookAppID)!, "user_id": 1_207_059], profile: ["id": "1207059"])
        let identity = try await fixture.verifier.verify(provider: .facebook, token: token, nonce: nil)
        #expect(identity.subject == "1207059")
    }

    @Test("expires_at 0: a token that never expires")
    func neverExpires() async throws {
        let fixture = await Fixture()
        await fixture.serveGraph(debugData: ["expires_at": 0])
        _ = try await fixture.verifier.verify(provider: .facebook, token: token, nonce: nil)
    }

    @Test("debug_token says is_valid false")
    func notValid() async {
        let fixture = await Fixture()
        await fixture.serveGraph(debugData: [
            "is_valid": false, "error": ["code": 190, "message": "Error validating access token"],
        ])
        await fixture.expect(.invalidToken("access token not valid"), provider: .facebook, token: token)
        #expect(await fixture.provider.requestCount(Fixture.me) == 0)
    }

    @Test("debug_token names another app")
    func otherApp() async {
        let fixture = await Fixture()
        await fixture.serveGraph(debugData: ["app_id": "111111111"])
        await fixture.expect(.invalidToken("access token for another app"), provider: .facebook, token: token)
    }

    @Test("debug_token's expires_at exactly the clock skew ago: expired")
    func expiredAtTheSkew() async {
        let fixture = await Fixture()
        await fixture.serveGraph(debugData: ["expires_at": Int(fixture.time(-60))])
        await fixture.expect(.invalidToken("access token expired"), provider: .facebook, token: token)
    }

    @Test("debug_token names an empty user")
    func emptyUser() async {
        let fixture = await Fixture()
        await fixture.serveGraph(debugData: ["user_id": ""])
        await fixture.expect(.invalidToken("access token not valid"), provider: .facebook, token: token)
    }

    @Test("An access token of exactly the longest length is asked about")
    func longestAccessToken() async throws {
        let fixture = await Fixture()
        await fixture.serveGraph()
        _ = try await fixture.verifier.verify(
            provider: .facebook, token: "EAA" + String(repeating: "a", count: 4093), nonce: nil)
    }

    @Test("debug_token says the token expired")
    func expired() async {
        let fixture = await Fixture()
        await fixture.serveGraph(debugData: ["expires_at": Int(fixture.time(-120))])
        await fixture.expect(.invalidToken("access token expired"), provider: .facebook, token: token)
    }

    @Test("debug_token describes an app token, not a user's")
    func appToken() async {
        let fixture = await Fixture()
        await fixture.serveGraph(debugData: ["type": "APP", "user_id": NSNull()])
        await fixture.expect(.invalidToken("access token not valid"), provider: .facebook, token: token)
    }

    @Test("/me answers for another user than debug_token")
    func profileMismatch() async {
        let fixture = await Fixture()
        await fixture.serveGraph(profile: ["id": "999", "name": "Mallory"])
        await fixture.expect(.invalidToken("profile does not match token"), provider: .facebook, token: token)
    }

    @Test("A Graph error with 400 refuses the token")
    func graphError() async {
        let fixture = await Fixture()
        let error = ["error": ["message": "Invalid OAuth access token.", "type": "OAuthException", "code": 190]]
        await fixture.provider.answer(Fixture.debugToken, json: error, status: 400)
        await fixture.expect(.invalidToken("Graph API rejected the token"), provider: .facebook, token: token)
    }

    @Test("A Graph 5xx is the provider's problem")
    func graphServerError() async {
        let fixture = await Fixture()
        await fixture.provider.answer(Fixture.debugToken, json: ["error": ["code": 2]], status: 503)
        await fixture.expect(.providerUnavailable("Graph API answered HTTP 503"), provider: .facebook, token: token)
    }

    @Test("A /me 5xx after a good debug_token is the provider's problem")
    func profileServerError() async {
        let fixture = await Fixture()
        await fixture.serveGraph()
        await fixture.provider.answer(Fixture.me, json: [:], status: 500)
        await fixture.expect(.providerUnavailable("Graph API answered HTTP 500"), provider: .facebook, token: token)
    }

    @Test("The Graph API unreachable")
    func graphUnreachable() async {
        let fixture = await Fixture()
        await fixture.provider.makeUnreachable(Fixture.debugToken)
        await fixture.expect(.providerUnavailable("Graph API unreachable"), provider: .facebook, token: token)
    }

    @Test("A Graph answer that is not JSON")
    func graphMalformed() async {
        let fixture = await Fixture()
        await fixture.provider.answer(
            Fixture.debugToken, with: SocialHTTPResponse(status: 200, headers: [], body: Array("<html>".utf8)))
        await fixture.expect(.providerUnavailable("Graph API answer malformed"), provider: .facebook, token: token)
    }

    @Test(
        "Text that is no access token never reaches the Graph API",
        arguments: ["", "EAA token", "EAA\n", "EAAé", "EAA" + String(repeating: "a", count: 4 * 1024)])
    func malformed(text: String) async {
        let fixture = await Fixture()
        await fixture.expect(.invalidToken("malformed access token"), provider: .facebook, token: text)
        #expect(await fixture.provider.requests.isEmpty)
    }

    @Test("Without an app secret, access tokens are not accepted")
    func noSecret() async {
        let fixture = await Fixture { $0.facebookAppSecret = nil }
        await fixture.expect(.notConfigured(.facebook), provider: .facebook, token: token)
        let empty = await Fixture { $0.facebookAppSecret = "" }
        await empty.expect(.notConfigured(.facebook), provider: .facebook, token: token)
        #expect(await empty.provider.requests.isEmpty)
    }

    @Test("A Graph answer of 200 that holds an error refuses the token")
    func errorInASuccessfulAnswer() async {
        let fixture = await Fixture()
        await fixture.serveGraph(profile: ["id": Fixture.facebookUserID, "error": ["message": "Unsupported request"]])
        await fixture.expect(.invalidToken("Graph API rejected the token"), provider: .facebook, token: token)
    }

    @Test("An unversioned Graph base when no version is configured")
    func unversioned() async throws {
        let fixture = await Fixture { $0.facebookGraphVersion = "" }
        await fixture.provider.answer(
            Fixture.graph + "/debug_token",
            json: [
                "data": [
                    "app_id": Fixture.facebookAppID, "is_valid": true, "expires_at": 0,
                    "user_id": Fixture.facebookUserID,
                ]
            ])
        await fixture.provider.answer(Fixture.graph + "/me", json: ["id": Fixture.facebookUserID])
        _ = try await fixture.verifier.verify(provider: .facebook, token: token, nonce: nil)
    }
}
