import Foundation
import HaleServer
import HaleTesting
import Testing

@testable import HaleClient

/// Every surface of the Swift client against `hale serve` running as its own process, on each database.
@Suite("HaleClient against hale serve: every surface", .serialized)
struct HaleClientSurfaceTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A software passkey for the server's default relying party.
    static func passkey() -> SoftwarePasskeyAuthenticator {
        SoftwarePasskeyAuthenticator(SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080"))
    }

    @Test(arguments: TestDatabase.available)
    func passkeysAccountAndSessions(database: TestDatabase) async throws {
        try await withServer(database) { server, _, _ in
            let client = HaleClient(baseURL: server.baseURL)
            let phone = Self.passkey()
            let signedUp = try await client.signUp(
                displayName: "Ana", email: "ana@example.com", with: phone,
                device: PasskeyDevice(platform: "ios", osVersion: "17.4", deviceName: "Ana's iPhone"))
            let account = try await client.account()
            // A sign-up's email is unverified, so the account has none yet.
            #expect(account.id == signedUp.accountId && account.email == nil)

            let laptop = Self.passkey()
            let added = try await client.addPasskey(with: laptop)
            let renamed = try await client.renamePasskey(added.id, to: "Laptop")
            #expect(Set(renamed.map(\.name)).contains("Laptop") && renamed.count == 2)

            try await client.signOut()
            await #expect(throws: HaleClientError.notSignedIn) { try await client.account() }
            try await client.signIn(with: laptop)
            #expect(try await client.account().id == account.id)
            #expect(await laptop.passkey.signCount == 1)

            try await client.deletePasskey(signedUp.passkey.id)
            do {
                try await client.deletePasskey(added.id)
                Issue.record("the last passkey was deleted without confirmation")
            } catch HaleClientError.server(let status, _, _) {
                #expect(status == 409 || status == 400)
            }
            #expect(try await client.passkeys().map(\.id) == [added.id])

            // A passkey the server never saw is refused with the core's error shape.
            do {
                try await HaleClient(baseURL: server.baseURL).signIn(with: Self.passkey())
                Issue.record("an unknown passkey signed in")
            } catch HaleClientError.server(let status, let code, _) {
                #expect(status == 401 && !code.isEmpty)
            }

            try await client.deleteAccount()
            #expect(await client.sessionTokens == nil)
        }
    }

    @Test(arguments: TestDatabase.available)
    func devicesAndConfirmations(database: TestDatabase) async throws {
        try await withServer(database) { server, hale, environment in
            let client = HaleClient(baseURL: server.baseURL)
            let signedUp = try await client.signUp(displayName: "Bo", with: Self.passkey())
            let accountId = try #require(signedUp.accountId)
            let key = SoftwareDeviceKey()
            let device = HaleClient.DeviceDescription(
                name: "Bo's Pixel", fingerprint: "android-\(UUID().uuidString.prefix(8))", convention: .android)
            let deviceId = try await client.registerDevice(key, device)
            try await client.signIn(with: key, device)
            try await client.renameDevice(deviceId, to: "Pixel 8")
            try await client.setPushToken(deviceId: deviceId, fcmToken: "fcm-token-for-bo")
            let devices = try await client.devices()
            let listed = try #require(devices.first { $0.id == deviceId })
            #expect(listed.name == "Pixel 8" && listed.active && listed.keys.count == 1)
            #expect(listed.sessions.contains { $0.current })

            let adminKey = try Self.adminKey(hale, environment)
            let asked = try await client.createConfirmation(
                accountId: accountId, actionType: "payment.approve",
                actionPayload: Data(#"{"amount": 4200, "currency": "EUR"}"#.utf8), adminKey: adminKey)
            #expect(try await client.pendingConfirmations().map(\.id) == [asked.id])
            let shown = try await client.confirmation(asked.id)
            #expect(shown.actionPayload == #"{"amount":4200,"currency":"EUR"}"#)
            let answered = try await client.answer(shown, .approve, signedWith: key, convention: .android)
            #expect(answered.status == "approved" && answered.deviceId == deviceId)
            do {
                try await client.answer(shown, .deny, signedWith: key, convention: .android)
                Issue.record("a confirmation was answered twice")
            } catch HaleClientError.server(let status, _, _) {
                #expect(status == 409)
            }
            #expect(try await client.pendingConfirmations().isEmpty)

            try await client.deactivateDevice(deviceId)
            await #expect(throws: HaleClientError.self) { try await client.signIn(with: key, device) }
        }
    }

    @Test(arguments: TestDatabase.available)
    func consentSyncAndChallenges(database: TestDatabase) async throws {
        try await withServer(database) { server, _, _ in
            let client = HaleClient(baseURL: server.baseURL)
            try await client.signUp(displayName: "Cy", with: Self.passkey())
            let granted = try await client.grantHealthConsent(platform: "apple", permissions: ["steps", "distance"])
            #expect(Set(granted.map(\.permission)) == ["steps", "distance"])
            #expect(try await client.healthConsent().count == 2)
            let connection = try await client.connectHealth(provider: "healthkit", permissions: ["steps", "distance"])
            #expect(connection.isActive)
            #expect(try await client.healthConnections().map(\.provider) == [connection.provider])

            let zone = try #require(TimeZone(identifier: "Europe/Madrid"))
            let start = Date().addingTimeInterval(-3 * 3600)
            let samples = (0..<3).map { index in
                HealthKitQuantity.stepCount.sample(
                    uuid: UUID().uuidString, value: 1000, start: start + Double(index) * 600,
                    end: start + Double(index) * 600 + 300, timeZone: zone, sourceBundle: "com.apple.health",
                    deviceModel: "iPhone15,2", deviceType: "phone", userEntered: false)
            }
            let batch = UUID().uuidString
            let first = try await client.sync(provider: "healthkit", samples: samples, batchId: batch)
            #expect(first.syncLog.recordsInserted == 3 && first.rejected.isEmpty && !first.replayed)
            let again = try await client.sync(provider: "healthkit", samples: samples, batchId: batch)
            #expect(again.replayed && again.syncLog.id == first.syncLog.id)
            let changes = HealthKitChanges(samples: [], deletedIDs: [try #require(samples[0].id)], anchor: nil)
            #expect(try await client.sync(changes).syncLog.recordsDeleted == 1)
            let today = Date().formatted(.iso8601.year().month().day())
            let daily = try await client.syncDaily(platform: "apple", date: today, steps: 4200, distance: 3100)
            #expect(daily.status == "completed")
            #expect(try await client.syncLogs(limit: 10).count == 3)

            let challenge = try await client.createChallenge(
                .init(name: "November steps", type: "steps", goal: 100_000, startDate: today, endDate: today))
            #expect(try await client.challenges().map(\.id).contains(challenge.id))
            let standings = try await client.leaderboard(challenge.id)
            #expect(standings.count == 1)
            let left = try await client.leaveChallenge(challenge.id)
            #expect(!left.joined)
            #expect(try await client.joinChallenge(challenge.id).joined)
            #expect(try await client.challenge(challenge.id).memberCount == 1)

            let revoked = try await client.revokeHealthConsent(platform: "apple", permission: "distance")
            #expect(revoked.map(\.permission) == ["distance"])
            try await client.disconnectHealth(provider: "healthkit")
            try await client.deleteAllHealthData()
            // A bad sample is refused per sample, not as a failed request.
            var bad = samples[1]
            bad.unit = "parsecs"
            let refused = try await client.sync(provider: "healthkit", samples: [bad])
            #expect(refused.rejected.map(\.index) == [0])
        }
    }

    @Test func socialSignIn() async throws {
        let provider = try await FakeSocialProvider.start()
        var environment: [String: String] = [:]
        for (path, value) in provider.settings {
            environment[try #require(ConfigKey.named(path)).environmentVariable] = value
        }
        try await withServer(.sqlite, environment: environment) { server, _, _ in
            let client = HaleClient(baseURL: server.baseURL)
            let signedIn = try await client.signIn(.google, token: try provider.googleIDToken(subject: "g-sdk"))
            #expect(signedIn.role == "client")
            #expect(try await client.account().role == "client")
            do {
                try await client.signIn(.facebook, token: "EAAunknown")
                Issue.record("an unknown Facebook token signed in")
            } catch HaleClientError.server(let status, let code, let message) {
                #expect(status == 401 && !code.isEmpty && !message.isEmpty)
            }
        }
        await provider.stop()
    }

    /// Runs `body` against a fresh `hale serve` on `database`, stopping it and disposing the database after.
    private func withServer(
        _ database: TestDatabase, environment extra: [String: String] = [:],
        _ body: (RunningHale, HaleExecutable, [String: String]) async throws -> Void
    ) async throws {
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await database.provision()
        let environment = extra.merging(["HALE_DATABASE_URL": url]) { $1 }
        let server = try await hale.serve(environment: environment)
        do {
            try await body(server, hale, environment)
        } catch {
            server.stop()
            await dispose()
            throw error
        }
        server.stop()
        await dispose()
    }

    /// An admin API key made with `hale admin-keys create`, on the server's database.
    private static func adminKey(_ hale: HaleExecutable, _ environment: [String: String]) throws -> String {
        let made = try hale.run(["admin-keys", "create", "--name", "sdk tests"], environment: environment)
        let created = try JSONSerialization.jsonObject(with: Data(made.output.utf8)) as? [String: Any]
        return try #require(created?["key"] as? String)
    }
}
