import Foundation
import HaleServer
import HaleTesting
import Testing

/// Seed 003's sign-in against `hale serve` running as its own process, with fake providers on loopback: the
/// client's document in, a personal access token out, and the token working on another route.
@Suite("hale serve, as a process: social sign-in", .serialized)
struct SocialSignInProcessTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: TestDatabase.available)
    func googleAndFacebookSignIn(database: TestDatabase) async throws {
        let provider = try await FakeSocialProvider.start()
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await database.provision()
        var environment = ["HALE_DATABASE_URL": url]
        for (path, value) in provider.settings {
            environment[try #require(ConfigKey.named(path)).environmentVariable] = value
        }
        let server = try await hale.serve(environment: environment)

        let idToken = try provider.googleIDToken(subject: "g-process")
        let google = try await server.request(
            "POST", "api/v1/auth/oauth/login",
            json: """
                {"data": {"attributes": {"provider": "google", "oauthToken": "\(idToken)", "role": "client"},
                  "relationships": {"deviceTokens": {"data": {"attributes": {"token": "fcm-1"}}}}}}
                """)
        #expect(google.status == 200)
        let document = try JSONSerialization.jsonObject(with: google.body) as? [String: Any]
        let attributes = (document?["data"] as? [String: Any])?["attributes"] as? [String: Any]
        let token = try #require(attributes?["token"] as? String)
        let account = try await server.request("GET", "api/v1/account", bearer: token)
        #expect(account.status == 200)

        provider.addFacebookUser(token: "EAAprocess", .init(id: "77", name: "Ana", email: nil))
        let facebook = try await server.request(
            "POST", "api/v1/auth/oauth/login",
            json: #"{"data": {"attributes": {"provider": "facebook", "oauthToken": "EAAprocess", "role": "client"}}}"#)
        #expect(facebook.status == 200)
        let refused = try await server.request(
            "POST", "api/v1/auth/oauth/login",
            json: #"{"data": {"attributes": {"provider": "facebook", "oauthToken": "EAAunknown", "role": "client"}}}"#)
        #expect(refused.status == 401)
        let log = try String(contentsOf: server.log, encoding: .utf8)
        #expect(!log.contains(idToken) && !log.contains("EAAprocess"), "tokens never reach the log")

        await server.stop()
        await provider.stop()
        await dispose()
    }
}
