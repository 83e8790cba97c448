import Foundation
import Testing

@testable import HaleClient

/// The step-up challenge of account deletion (RFC 9470) is its own error, never a reason to refresh.
@Suite("HaleClient: fresh sign-in and personal access tokens")
struct FreshSignInTests {
    static let stepUp = [
        "WWW-Authenticate":
            #"Bearer realm="hale", error="insufficient_user_authentication", "#
            + #"error_description="A more recent sign-in is required", max_age="300""#
    ]
    static let body =
        #"{"success":false,"error":{"code":"FRESH_SIGN_IN_REQUIRED","message":"Sign in again, then retry."}}"#

    @Test("a Bearer challenge's parameters are read, quoted or not")
    func challengeParameters() throws {
        let challenge = try #require(BearerChallenge(Self.stepUp["WWW-Authenticate"] ?? ""))
        #expect(challenge.error == "insufficient_user_authentication")
        #expect(challenge.maxAge == .seconds(300))
        #expect(challenge.parameters["realm"] == "hale")
        #expect(challenge.parameters["error_description"] == "A more recent sign-in is required")
        let bare = try #require(BearerChallenge(#"bearer error=invalid_token, max_age=60"#))
        #expect(bare.error == "invalid_token" && bare.maxAge == .seconds(60))
        #expect(BearerChallenge(#"Bearer error="a\"b""#)?.error == #"a"b"#)
    }

    @Test(arguments: ["", "Basic realm=\"x\"", "Bearerish error=\"invalid_token\""])
    func notABearerChallenge(header: String) {
        #expect(BearerChallenge(header) == nil)
    }

    @Test("a description that mentions invalid_token does not make a step-up a refresh")
    func onlyTheErrorParameterCounts() {
        let challenge = BearerChallenge(
            #"Bearer error="insufficient_user_authentication", error_description="not invalid_token""#)
        #expect(challenge?.error == "insufficient_user_authentication")
    }

    @Test("deleting the account without a fresh sign-in throws freshSignInRequired: no refresh, session kept")
    func stepUpIsNotARefresh() async throws {
        let script = ScriptedURLProtocol.script([.status(401, headers: Self.stepUp, body: Self.body)])
        let client = script.client()
        await client.restore(SessionTokens(accessToken: "a1", refreshToken: "r1"))
        await #expect(throws: HaleClientError.freshSignInRequired(maxAge: .seconds(300))) {
            try await client.deleteAccount()
        }
        #expect(script.asked == ["DELETE /api/v1/account"])
        #expect(await client.sessionTokens == SessionTokens(accessToken: "a1", refreshToken: "r1"))
    }

    @Test("the error prints as a sentence with the window")
    func description() {
        #expect(
            HaleClientError.freshSignInRequired(maxAge: .seconds(300)).description
                == "a more recent sign-in is required (within 300 s)")
        #expect(HaleClientError.freshSignInRequired(maxAge: nil).description == "a more recent sign-in is required")
        #expect(!HaleClientError.freshSignInRequired(maxAge: nil).isTransient)
    }

    @Test("revoking the token the client signed in with signs it out; revoking another keeps it")
    func revokingTheCurrentTokenSignsOut() async throws {
        let script = ScriptedURLProtocol.script([
            .status(200, body: #"{"success":true}"#), .status(200, body: #"{"success":true}"#),
        ])
        let client = script.client()
        await client.restore(SessionTokens(accessToken: "12|secret", refreshToken: nil))
        try await client.revokePersonalAccessToken(1)
        #expect(await client.sessionTokens == SessionTokens(accessToken: "12|secret", refreshToken: nil))
        try await client.revokePersonalAccessToken(12)
        #expect(await client.sessionTokens == nil)
        #expect(script.asked == ["DELETE /api/v1/account/tokens/1", "DELETE /api/v1/account/tokens/12"])
    }

    @Test("the listing decodes each token's dates, nulls included")
    func listing() async throws {
        let body = """
            {"tokens":[{"id":42,"name":"google sign-in","createdAt":"2026-11-22T09:30:00.000Z",\
            "lastUsedAt":null,"expiresAt":"2026-12-22T09:30:00Z","current":true}]}
            """
        let script = ScriptedURLProtocol.script([.status(200, body: body)])
        let client = script.client()
        await client.restore(SessionTokens(accessToken: "42|secret", refreshToken: nil))
        let tokens = try await client.personalAccessTokens(limit: 5)
        #expect(tokens.map(\.id) == [42] && tokens[0].current && tokens[0].lastUsedAt == nil)
        #expect(tokens[0].expiresAt == Date(timeIntervalSince1970: 1_797_931_800))
        #expect(script.asked == ["GET /api/v1/account/tokens"])
    }
}
