import Foundation
import HaleServer
import HaleTesting
import Testing

@testable import HaleClient

/// The Swift client against `hale serve` running as its own process: seed 002's device keys.
@Suite("HaleClient against hale serve: device keys", .serialized)
struct HaleClientProcessTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: DeviceSigningConvention.allCases)
    func registerSignInAndRefresh(convention: DeviceSigningConvention) async throws {
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await TestDatabase.sqlite.provision()
        defer { Task { await dispose() } }
        let environment = ["HALE_DATABASE_URL": url]
        let created = try ProcessDeviceSignIn.object(
            Data(
                try await hale.run(["accounts", "create", "--email", "sdk@example.com"], environment: environment)
                    .output.utf8
            ))
        let token = try #require(created["token"] as? String)
        let server = try await hale.serve(environment: environment)
        defer { server.stop() }

        let client = HaleClient(testing: server.baseURL)
        let key = SoftwareDeviceKey()
        let device = HaleClient.DeviceDescription(
            name: "SDK phone", fingerprint: "sdk-\(UUID().uuidString.prefix(8))", convention: convention)
        let deviceId = try await client.registerDevice(key, device, bearer: token)
        let first = try await client.signIn(with: key, device)
        let devices: DeviceList = try await client.send("GET", "api/v1/devices", as: .session)
        #expect(devices.devices.map(\.id) == [deviceId])

        // Ten refreshes at once are one refresh: a second use of the same refresh token would end the session.
        let refreshed = try await withThrowingTaskGroup(of: SessionTokens.self) { group in
            for _ in 0..<10 { group.addTask { try await client.refreshSession() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1.refreshToken ?? "") }
        }
        #expect(refreshed.count == 1 && !refreshed.contains(first.refreshToken ?? ""))

        // An access token the server refuses is refreshed once, and the request goes through.
        let current = try #require(await client.sessionTokens)
        await client.restore(SessionTokens(accessToken: "not-a-token", refreshToken: current.refreshToken))
        let again: DeviceList = try await client.send("GET", "api/v1/devices", as: .session)
        #expect(again.devices.count == 1)

        // Another key under the same fingerprint is refused with the surface's code.
        do {
            try await client.signIn(with: SoftwareDeviceKey(), device)
            Issue.record("a key that was never registered signed in")
        } catch HaleClientError.server(let status, let code, _) {
            #expect(status == 401 && code == "SIGNATURE_FAILED")
        }
    }

    struct DeviceList: Decodable {
        struct Device: Decodable { let id: String }
        let devices: [Device]
    }
}
