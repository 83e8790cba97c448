import Foundation
import HaleClient
import HaleServer
import HaleTesting
import Testing

/// Personal access tokens and the fresh-sign-in rule against `hale serve` running as its own process, through the
/// SDK and the `hale tokens` commands an operator runs beside it.
@Suite("hale serve, as a process: personal access tokens and account deletion", .serialized)
struct PersonalAccessTokenProcessTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test(arguments: TestDatabase.available)
    func listRevokeAndDeleteAfterAFreshSignIn(database: TestDatabase) async throws {
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await database.provision()
        defer { Task { await dispose() } }
        let environment = ["HALE_DATABASE_URL": url, "HALE_TOKENS_FRESH_SIGN_IN_WINDOW": "5s"]
        let created = try #require(
            try Self.json(
                try await hale.run(["accounts", "create", "--email", "ops@example.com"], environment: environment)
                    .output) as? [String: String])
        let token = try #require(created["token"])
        let id = String(token.split(separator: "|")[0])
        let server = try await hale.serve(environment: environment)

        let operatorClient = HaleClient(testing: server.baseURL)
        await operatorClient.restore(SessionTokens(accessToken: token, refreshToken: nil))
        let listed = try await operatorClient.personalAccessTokens()
        #expect(listed.map(\.name) == ["hale accounts create"] && listed.map(\.current) == [true])
        await #expect(throws: HaleClientError.freshSignInRequired(maxAge: .seconds(5))) {
            try await operatorClient.deleteAccount()
        }
        #expect(await operatorClient.sessionTokens != nil, "a step-up keeps the credential")

        let person = HaleClient(testing: server.baseURL)
        let passkey = SoftwarePasskeyAuthenticator(SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080"))
        try await person.signUp(displayName: "Ana", with: passkey)
        // The window is five seconds, not one, so that a loaded machine's sign-in and deletion still fit in it.
        try await Task.sleep(for: .milliseconds(5_100))
        await #expect(throws: HaleClientError.freshSignInRequired(maxAge: .seconds(5))) {
            try await person.deleteAccount()
        }
        try await person.signIn(with: passkey)
        try await person.deleteAccount()
        #expect(await person.sessionTokens == nil)

        // SIGTERM: the server writes the uses it remembered before it exits.
        await server.stop()
        let rows = try #require(
            try Self.json(
                try await hale.run(["tokens", "list", "--email", "ops@example.com"], environment: environment)
                    .output) as? [[String: Any]])
        #expect(rows.count == 1 && rows[0]["lastUsedAt"] is String && rows[0]["revokedAt"] == nil)
        #expect(try await hale.run(["tokens", "revoke", id], environment: environment).status == 0)
        let revoked = try #require(
            try Self.json(
                try await hale.run(["tokens", "list", "--email", "ops@example.com"], environment: environment)
                    .output) as? [[String: Any]])
        #expect(revoked.first?["revokedAt"] is String)
        #expect(try await hale.run(["tokens", "revoke", id], environment: environment).status != 0)
    }
}
