import Foundation
import HaleClient
import HaleServer
import HaleTesting
import Testing

/// Seed 002's journey against `hale serve` running as its own process: register a device key, sign in, refresh,
/// list the device, and see the audit trail hold.
@Suite("hale serve, as a process: device keys", .serialized)
struct DeviceKeyProcessTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    private func object(_ data: Data) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    @Test(arguments: TestDatabase.available)
    func registerSignInRefreshAndAudit(database: TestDatabase) async throws {
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await database.provision()
        defer { Task { await dispose() } }
        let environment = ["HALE_DATABASE_URL": url]
        let created = try await hale.run(
            ["accounts", "create", "--email", "device@example.com"], environment: environment)
        let token = try #require(try object(Data(created.output.utf8))["token"] as? String)
        let server = try await hale.serve(environment: environment)
        defer { server.stop() }

        let device = ProcessDeviceSignIn()
        _ = try await device.register(on: server, bearer: token)
        let tokens = try await device.signIn(on: server)
        let refreshed = try await server.request(
            "POST", "api/v1/auth/biometric/refresh",
            json: try json(["refreshToken": try #require(tokens["refreshToken"] as? String)]))
        #expect(refreshed.status == 200)
        let access = try #require(try object(refreshed.body)["accessToken"] as? String)

        let devices = try object(try await server.request("GET", "api/v1/devices", bearer: access).body)
        #expect((devices["devices"] as? [[String: Any]])?.first?["name"] as? String == "Test iPhone")
        let audit = try object(try await server.request("GET", "api/v1/audit", bearer: access).body)
        #expect((audit["events"] as? [[String: Any]])?.first?["type"] as? String == "device_registered")
        await server.stop()
        let verified = try await hale.run(["audit", "verify"], environment: environment)
        #expect(verified.status == 0)
        #expect(verified.output.contains("intact: 1 events"))
    }
}
