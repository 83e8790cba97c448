import Foundation
import Testing

@testable import HaleClient

/// Seed 000's sign-in answer when the server mints Firebase custom tokens: `token` is then Firebase's, and the
/// client must keep Hale's `accessToken` to call Hale.
@Suite("HaleClient: passkey sign-in against a server that mints Firebase custom tokens")
struct FirebasePasskeySignInTests {
    static let options = """
        {"options":{"challenge":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","timeout":300000,"rpId":"example.com",\
        "allowCredentials":[],"userVerification":"preferred","hints":[]},"uid":"c1"}
        """

    @Test("the client keeps Hale's accessToken, not the Firebase custom token in token")
    func keepsHalesAccessToken() async throws {
        let signedIn = """
            {"token":"firebase.custom.token","accessToken":"hale.access.token","refreshToken":"r1",\
            "expiresAt":"2026-01-01T00:00:00Z","refreshTokenExpiresAt":"2026-01-08T00:00:00Z","accountId":"a"}
            """
        let script = ScriptedURLProtocol.script([.status(200, body: Self.options), .status(200, body: signedIn)])
        let client = script.client()
        let tokens = try await client.signIn(with: SoftwarePasskeyAuthenticator(SoftwarePasskey()))
        #expect(tokens == SessionTokens(accessToken: "hale.access.token", refreshToken: "r1"))
        #expect(await client.sessionTokens == tokens)
    }

    @Test("without Firebase, token is Hale's access token, as before")
    func keepsTokenWithoutFirebase() async throws {
        let signedIn = """
            {"token":"hale.access.token","refreshToken":"r1","expiresAt":"2026-01-01T00:00:00Z",\
            "refreshTokenExpiresAt":"2026-01-08T00:00:00Z","accountId":"a"}
            """
        let script = ScriptedURLProtocol.script([.status(200, body: Self.options), .status(200, body: signedIn)])
        let tokens = try await script.client().signIn(with: SoftwarePasskeyAuthenticator(SoftwarePasskey()))
        #expect(tokens == SessionTokens(accessToken: "hale.access.token", refreshToken: "r1"))
    }

    @Test("signInForFirebase answers the custom token, and the client still keeps Hale's tokens")
    func customTokenForTheApp() async throws {
        let signedIn = """
            {"token":"firebase.custom.token","accessToken":"hale.access.token","refreshToken":"r1",\
            "expiresAt":"2026-01-01T00:00:00Z","refreshTokenExpiresAt":"2026-01-08T00:00:00Z","accountId":"a"}
            """
        let script = ScriptedURLProtocol.script([.status(200, body: Self.options), .status(200, body: signedIn)])
        let client = script.client()
        let customToken = try await client.signInForFirebase(with: SoftwarePasskeyAuthenticator(SoftwarePasskey()))
        #expect(customToken == "firebase.custom.token")
        #expect(await client.sessionTokens == SessionTokens(accessToken: "hale.access.token", refreshToken: "r1"))
    }

    @Test("signInForFirebase answers nil when the server mints no custom token")
    func noCustomToken() async throws {
        let signedIn = """
            {"token":"hale.access.token","refreshToken":"r1","expiresAt":"2026-01-01T00:00:00Z",\
            "refreshTokenExpiresAt":"2026-01-08T00:00:00Z","accountId":"a"}
            """
        let script = ScriptedURLProtocol.script([.status(200, body: Self.options), .status(200, body: signedIn)])
        #expect(
            try await script.client().signInForFirebase(with: SoftwarePasskeyAuthenticator(SoftwarePasskey())) == nil)
    }
}
