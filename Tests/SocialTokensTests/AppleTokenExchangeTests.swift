import Foundation
import SocialTokens
import Testing

@Suite("Apple authorization-code exchange")
struct AppleTokenExchangeTests {
    @Test("A good code: the form Apple documents, and the refresh token and subject back")
    func exchange() async throws {
        let fixture = try AppleClientFixture()
        await fixture.serveTokens()
        let tokens = try await fixture.client.exchange(
            authorizationCode: AppleClientFixture.code, clientID: AppleClientFixture.clientID)
        #expect(
            tokens == AppleTokens(refreshToken: AppleClientFixture.refreshToken, subject: AppleClientFixture.subject))
        let posts = await fixture.postedForms()
        try #require(posts.count == 1)
        #expect(posts[0].url == AppleClientFixture.tokenURL)
        #expect(posts[0].fields.map(\.0) == ["client_id", "client_secret", "code", "grant_type"])
        #expect(posts[0].fields[0].1 == AppleClientFixture.clientID)
        let secretClaims = try #require(AppleClientFixture.verifiedClaims(ofSecret: posts[0].fields[1].1))
        #expect(secretClaims["sub"] as? String == AppleClientFixture.clientID)
        #expect(posts[0].fields[2].1 == AppleClientFixture.code)
        #expect(posts[0].fields[3].1 == "authorization_code")
    }

    @Test("A code from the web flow carries its redirect_uri")
    func redirectURI() async throws {
        let fixture = try AppleClientFixture()
        await fixture.serveTokens()
        _ = try await fixture.client.exchange(
            authorizationCode: AppleClientFixture.code, clientID: AppleClientFixture.clientID,
            redirectURI: "https://hale.test/apple/callback")
        let fields = try #require(await fixture.postedForms().first?.fields)
        #expect(fields.map(\.0) == ["client_id", "client_secret", "code", "grant_type", "redirect_uri"])
        #expect(fields.last?.1 == "https://hale.test/apple/callback")
    }

    @Test("The description of the tokens leaves the refresh token out")
    func tokensDescription() {
        let tokens = AppleTokens(refreshToken: AppleClientFixture.refreshToken, subject: AppleClientFixture.subject)
        var dumped = ""
        dump(tokens, to: &dumped)
        for text in ["\(tokens)", String(reflecting: tokens), dumped] {
            #expect(text.contains(AppleClientFixture.subject))
            #expect(!text.contains(AppleClientFixture.refreshToken))
        }
    }

    @Test(
        "Apple's refusals, by whose fault they are",
        arguments: [
            (400, #"{"error":"invalid_grant"}"#, .invalidToken("apple_invalid_grant")),
            (400, #"{"error":"invalid_client"}"#, .providerUnavailable("apple_invalid_client")),
            (401, #"{"error":"invalid_client"}"#, .providerUnavailable("apple_invalid_client")),
            (400, #"{"error":"unauthorized_client"}"#, .providerUnavailable("apple_unauthorized_client")),
            (400, #"{"error":"invalid_request"}"#, .providerUnavailable("apple_invalid_request")),
            (400, #"{"error":"unsupported_grant_type"}"#, .providerUnavailable("apple_unsupported_grant_type")),
            (400, #"{"error":"invalid_scope"}"#, .providerUnavailable("apple_invalid_scope")),
            (400, #"{"error":"something_new"}"#, .providerUnavailable("apple_http_400")),
            (400, "Bad Request", .providerUnavailable("apple_http_400")),
            (429, #"{"error":"invalid_grant"}"#, .providerUnavailable("apple_http_429")),
            (500, #"{"error":"invalid_grant"}"#, .providerUnavailable("apple_http_500")),
            (503, "", .providerUnavailable("apple_http_503")),
            (201, "{}", .providerUnavailable("apple_http_201")),
            (302, "", .providerUnavailable("apple_http_302")),
        ] as [(Int, String, SocialTokenError)])
    func refused(status: Int, body: String, expected: SocialTokenError) async throws {
        let fixture = try AppleClientFixture()
        await fixture.provider.answer(
            AppleClientFixture.tokenURL, with: SocialHTTPResponse(status: status, body: Array(body.utf8)))
        await AppleClientFixture.expect(expected, secrets: [AppleClientFixture.code]) { () throws(SocialTokenError) in
            _ = try await fixture.client.exchange(
                authorizationCode: AppleClientFixture.code, clientID: AppleClientFixture.clientID)
        }
    }

    @Test("Apple unreachable")
    func unreachable() async throws {
        let fixture = try AppleClientFixture()
        await fixture.provider.makeUnreachable(AppleClientFixture.tokenURL)
        await AppleClientFixture.expect(.providerUnavailable("apple_unreachable")) { () throws(SocialTokenError) in
            _ = try await fixture.client.exchange(
                authorizationCode: AppleClientFixture.code, clientID: AppleClientFixture.clientID)
        }
    }

    @Test(
        "A 200 this library cannot use",
        arguments: [
            "not json", #"{"refresh_token":"r"}"#, #"{"id_token":"x.y.z"}"#,
            #"{"refresh_token":"","id_token":"x.y.z"}"#, #"{"refresh_token":"r","id_token":"not-a-jwt"}"#,
            #"{"refresh_token":["r"],"id_token":"x.y.z"}"#,
        ])
    func unreadable(body: String) async throws {
        let fixture = try AppleClientFixture()
        await fixture.provider.answer(
            AppleClientFixture.tokenURL, with: SocialHTTPResponse(status: 200, body: Array(body.utf8)))
        await AppleClientFixture.expect(.providerUnavailable("apple_response_malformed")) {
            () throws(SocialTokenError) in
            _ = try await fixture.client.exchange(
                authorizationCode: AppleClientFixture.code, clientID: AppleClientFixture.clientID)
        }
    }

    @Test(
        "An id_token that is not this client's Apple token",
        arguments: [
            ("aud", "com.example.other"), ("aud", [AppleClientFixture.clientID, "com.example.other"]),
            ("iss", "https://appleid.apple.com/"), ("sub", nil), ("sub", ""),
        ] as [(String, (any Sendable)?)])
    func foreignIDToken(claim: String, value: (any Sendable)?) async throws {
        let fixture = try AppleClientFixture()
        await fixture.serveTokens(idToken: fixture.idToken { $0[claim] = value })
        await AppleClientFixture.expect(.providerUnavailable("apple_response_malformed")) {
            () throws(SocialTokenError) in
            _ = try await fixture.client.exchange(
                authorizationCode: AppleClientFixture.code, clientID: AppleClientFixture.clientID)
        }
    }

    @Test(
        "A code that cannot be Apple's is refused without calling Apple",
        arguments: ["", "two words", "line\nbreak", String(repeating: "c", count: 4097), "naïve"])
    func malformedCode(code: String) async throws {
        let fixture = try AppleClientFixture()
        await fixture.serveTokens()
        await AppleClientFixture.expect(.invalidToken("apple_code_malformed")) { () throws(SocialTokenError) in
            _ = try await fixture.client.exchange(authorizationCode: code, clientID: AppleClientFixture.clientID)
        }
        #expect(await fixture.provider.requests.isEmpty)
    }

    @Test("An empty client id is a configuration error, and Apple is not called")
    func emptyClientID() async throws {
        let fixture = try AppleClientFixture()
        await AppleClientFixture.expect(.notConfigured(.apple)) { () throws(SocialTokenError) in
            _ = try await fixture.client.exchange(authorizationCode: AppleClientFixture.code, clientID: "")
        }
        #expect(await fixture.provider.requests.isEmpty)
    }
}
