import Foundation
import HaleClient
import HaleServer
import HaleTesting
import Testing

/// Seed 002's confirmation requests against `hale serve` running as its own process: an operator makes an admin key
/// with `hale admin-keys`, the backend asks, the device approves with its key, the backend reads the answer.
@Suite("hale serve, as a process: confirmations", .serialized)
struct ConfirmationProcessTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: TestDatabase.available)
    func askApproveAndRead(database: TestDatabase) async throws {
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await database.provision()
        defer { Task { await dispose() } }
        let environment = ["HALE_DATABASE_URL": url]
        let created = try ProcessDeviceSignIn.object(
            Data(
                try await hale.run(["accounts", "create", "--email", "payer@example.com"], environment: environment)
                    .output.utf8))
        let (account, token) = (
            try #require(created["accountId"] as? String), try #require(created["token"] as? String)
        )
        let made = try await hale.run(["admin-keys", "create", "--name", "shop backend"], environment: environment)
        #expect(made.status == 0)
        let adminKey = try #require(try ProcessDeviceSignIn.object(Data(made.output.utf8))["key"] as? String)
        let server = try await hale.serve(environment: environment)
        defer { server.stop() }
        let device = ProcessDeviceSignIn()
        _ = try await device.register(on: server, bearer: token)
        let access = try #require(try await device.signIn(on: server)["accessToken"] as? String)

        let asked = try await server.request(
            "POST", "api/v1/admin/confirmations", bearer: adminKey,
            json: #"{"accountId":"\#(account)","actionType":"payment.approve","actionPayload":{"amount":"12.00"}}"#)
        #expect(asked.status == 201)
        let confirmation = try #require(try ProcessDeviceSignIn.object(asked.body)["confirmation"] as? [String: Any])
        let id = try #require(confirmation["id"] as? String)
        let message = ConfirmationMessage(
            confirmationId: try #require(ConfirmationID(id)), actionType: "payment.approve",
            actionPayload: try #require(confirmation["actionPayload"] as? String), decision: .approve)
        let answered = try await server.request(
            "POST", "api/v1/confirmations/\(id)/answer", bearer: access,
            json: try ProcessDeviceSignIn.json([
                "decision": "approve", "signature": try device.key.sign(challenge: message.challenge, convention: .iOS),
            ]))
        #expect(answered.status == 200)
        let read = try await server.request("GET", "api/v1/admin/confirmations/\(id)", bearer: adminKey)
        let status = try ProcessDeviceSignIn.object(read.body)["confirmation"] as? [String: Any]
        #expect(status?["status"] as? String == "approved")

        let keyID = try #require(adminKey.split(separator: ".").dropFirst().first.map(String.init))
        #expect(try await hale.run(["admin-keys", "revoke", keyID], environment: environment).status == 0)
        let refused = try await server.request("GET", "api/v1/admin/confirmations/\(id)", bearer: adminKey)
        #expect(refused.status == 401)
        let listed = try await hale.run(["admin-keys", "list"], environment: environment)
        #expect(listed.output.contains("shop backend") && !listed.output.contains(adminKey))
    }
}
