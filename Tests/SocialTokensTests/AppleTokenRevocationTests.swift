import Foundation
import SocialTokens
import Testing

@Suite("Apple refresh token revocation")
struct AppleTokenRevocationTests {
    @Test("200: revoked, with exactly the form Apple documents")
    func revoke() async throws {
        let fixture = try AppleClientFixture()
        await fixture.provider.answer(AppleClientFixture.revokeURL, with: SocialHTTPResponse(status: 200))
        try await fixture.client.revoke(
            refreshToken: AppleClientFixture.refreshToken, clientID: AppleClientFixture.clientID)
        let posts = await fixture.postedForms()
        try #require(posts.count == 1)
        #expect(posts[0].url == AppleClientFixture.revokeURL)
        #expect(posts[0].fields.map(\.0) == ["client_id", "client_secret", "token", "token_type_hint"])
        #expect(posts[0].fields[0].1 == AppleClientFixture.clientID)
        let claims = try #require(AppleClientFixture.verifiedClaims(ofSecret: posts[0].fields[1].1))
        #expect(claims["iss"] as? String == AppleClientFixture.teamID)
        #expect(claims["sub"] as? String == AppleClientFixture.clientID)
        #expect(posts[0].fields[2].1 == AppleClientFixture.refreshToken)
        #expect(posts[0].fields[3].1 == "refresh_token")
    }

    @Test("Revoking twice succeeds twice: Apple answers 200 for a token already revoked")
    func revokeTwice() async throws {
        let fixture = try AppleClientFixture()
        await fixture.provider.answer(AppleClientFixture.revokeURL, with: SocialHTTPResponse(status: 200))
        for _ in 0..<2 {
            try await fixture.client.revoke(
                refreshToken: AppleClientFixture.refreshToken, clientID: AppleClientFixture.clientID)
        }
        #expect(await fixture.provider.requestCount(AppleClientFixture.revokeURL) == 2)
    }

    @Test(
        "Failures, and no secret or token in any of them",
        arguments: [
            (400, #"{"error":"invalid_client"}"#, .providerUnavailable("apple_invalid_client")),
            (400, #"{"error":"unauthorized_client"}"#, .providerUnavailable("apple_unauthorized_client")),
            (400, #"{"error":"invalid_request"}"#, .providerUnavailable("apple_invalid_request")),
            (400, #"{"error":"unsupported_token_type"}"#, .providerUnavailable("apple_unsupported_token_type")),
            (400, #"{"error":"invalid_grant"}"#, .invalidToken("apple_invalid_grant")),
            (400, "", .providerUnavailable("apple_http_400")),
            (429, "", .providerUnavailable("apple_http_429")),
            (500, "", .providerUnavailable("apple_http_500")),
            (502, "<html>Bad Gateway</html>", .providerUnavailable("apple_http_502")),
            (204, "", .providerUnavailable("apple_http_204")),
        ] as [(Int, String, SocialTokenError)])
    func refused(status: Int, body: String, expected: SocialTokenError) async throws {
        let fixture = try AppleClientFixture()
        await fixture.provider.answer(
            AppleClientFixture.revokeURL, with: SocialHTTPResponse(status: status, body: Array(body.utf8)))
        await expectFailure(expected, fixture)
    }

    @Test("Apple unreachable: the caller retries")
    func unreachable() async throws {
        let fixture = try AppleClientFixture()
        await fixture.provider.makeUnreachable(AppleClientFixture.revokeURL)
        await expectFailure(.providerUnavailable("apple_unreachable"), fixture)
    }

    @Test(
        "A token that cannot be Apple's is refused without calling Apple",
        arguments: ["", "with space", String(repeating: "t", count: 4097)])
    func malformedToken(token: String) async throws {
        let fixture = try AppleClientFixture()
        await AppleClientFixture.expect(.invalidToken("apple_token_malformed")) { () throws(SocialTokenError) in
            try await fixture.client.revoke(refreshToken: token, clientID: AppleClientFixture.clientID)
        }
        #expect(await fixture.provider.requests.isEmpty)
    }

    /// Expects revoking the fixture's token to throw `expected`, with neither the token, the client secret that
    /// was sent (or any part of it), nor any line of the private key in the error.
    private func expectFailure(
        _ expected: SocialTokenError, _ fixture: AppleClientFixture, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do throws(SocialTokenError) {
            try await fixture.client.revoke(
                refreshToken: AppleClientFixture.refreshToken, clientID: AppleClientFixture.clientID)
            Issue.record("expected \(expected), but it succeeded", sourceLocation: sourceLocation)
        } catch {
            #expect(error == expected, sourceLocation: sourceLocation)
            let pem = AppleClientFixture.credentials().privateKeyPEM
            var secrets = pem.split(separator: "\n").filter { !$0.hasPrefix("-") }.map(String.init)
            for (name, value) in await fixture.postedForms().first?.fields ?? [] where name != "client_id" {
                secrets.append(value)
                secrets += value.split(separator: ".").map(String.init)
            }
            #expect(secrets.contains(AppleClientFixture.refreshToken), sourceLocation: sourceLocation)
            for text in ["\(error)", String(reflecting: error)] {
                for secret in secrets where secret.count >= 8 {
                    #expect(!text.contains(secret), sourceLocation: sourceLocation)
                }
            }
        }
    }
}
