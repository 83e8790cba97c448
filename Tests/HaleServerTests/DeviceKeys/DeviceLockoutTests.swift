import Foundation
import HaleTesting
import Logging
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Failed device-key signatures lock out the client network they come from, not the device: a device's fingerprint
/// is no secret, and failing with it must not lock its owner out. The counts live in the database.
@Suite("Device keys: lockout per device and client network")
struct DeviceLockoutTests {
    private static let attacker = "198.51.100.7"
    private static let owner = "203.0.113.9"

    /// A Hale with a registered iOS device; `body` gets the app, the owner's key and an impostor's key that shares
    /// only the device's fingerprint.
    private func withDevice(
        on database: TestDatabase, clock: HaleClock = .system, settings: [String: String] = [:],
        _ body: (Application, DeviceClient, DeviceClient) async throws -> Void
    ) async throws {
        try await withHale(on: database, clock: clock, settings: settings) { app in
            let (_, bearer) = try await makeAccount(app)
            let owner = try DeviceClient(.iOS)
            try await DeviceAPI(app: app).register(owner, bearer: bearer)
            try await body(app, owner, try DeviceClient(.iOS, fingerprint: owner.fingerprint))
        }
    }

    /// Signs in with `client`'s key from `ip` through the service, as the route does; whether it was let in.
    private func signIn(_ app: Application, _ client: DeviceClient, from ip: String) async throws -> Bool {
        let challenge = try await app.hale.devices.startSignIn(fingerprint: client.fingerprint)
        do {
            _ = try await app.hale.devices.completeSignIn(
                sessionId: challenge.sessionId, signedChallenge: try client.sign(challenge.challenge),
                rememberMe: false, ip: ip, logger: Logger(label: "test"))
            return true
        } catch let error as HaleError where error == .deviceSignInFailed {
            return false
        }
    }

    private func fail(_ app: Application, _ impostor: DeviceClient, times: Int, from ip: String) async throws {
        for _ in 0..<times { #expect(try await signIn(app, impostor, from: ip) == false) }
    }

    @Test(
        "an attacker who knows only the fingerprint fails six times from one address; the owner signs in from another at once",
        arguments: TestDatabase.available)
    func ownerSignsInElsewhere(database: TestDatabase) async throws {
        try await withDevice(on: database, settings: ProxiedClient.settings) { app, owner, impostor in
            let client = try ProxiedClient(app)
            for _ in 0..<6 {
                let response = try await Self.signIn(client, impostor, from: Self.attacker)
                #expect(response.status == .unauthorized)
                #expect(try response.coreError().error.code == "SIGNATURE_FAILED")
            }
            let signedIn = try await Self.signIn(client, owner, from: Self.owner)
            #expect(signedIn.status == .ok, "\(signedIn.body.string)")
        }
    }

    /// Through the route, behind the trusted proxy 127.0.0.1: a challenge and its answer for `ip`.
    private static func signIn(_ client: ProxiedClient, _ device: DeviceClient, from ip: String) async throws
        -> TestingHTTPResponse
    {
        let issued = try await client.post(
            "/api/v1/auth/biometric/challenge", ["deviceFingerprint": device.fingerprint], from: ip)
        let challenge = try JSONDecoder().decode(DeviceAPI.Challenge.self, from: Data(buffer: issued.body))
        return try await client.post(
            "/api/v1/auth/biometric/verify",
            ["sessionId": challenge.sessionId, "signedChallenge": try device.sign(challenge.challenge)], from: ip)
    }

    @Test(
        "the failing address is locked out, even with the right key, for the lockout duration",
        arguments: TestDatabase.available)
    func failingAddressLocked(database: TestDatabase) async throws {
        let time = TestClock()
        try await withDevice(on: database, clock: time.clock) { app, owner, impostor in
            try await fail(app, impostor, times: 5, from: Self.attacker)
            #expect(try await signIn(app, owner, from: Self.attacker) == false)
            time.advance(.seconds(15 * 60 - 1))
            #expect(try await signIn(app, owner, from: Self.attacker) == false)
            time.advance(.seconds(1))
            #expect(try await signIn(app, owner, from: Self.attacker))
        }
    }

    @Test("a success from an address forgets that address's failures", arguments: TestDatabase.available)
    func successForgets(database: TestDatabase) async throws {
        try await withDevice(on: database, settings: ["deviceKeys.lockoutThreshold": "3"]) { app, owner, impostor in
            try await fail(app, impostor, times: 2, from: Self.attacker)
            #expect(try await signIn(app, owner, from: Self.attacker))
            try await fail(app, impostor, times: 2, from: Self.attacker)
            #expect(try await signIn(app, owner, from: Self.attacker))
        }
    }

    @Test(
        "failures further apart than the lockout duration do not add up; closer ones do",
        arguments: TestDatabase.available)
    func failuresAreForgotten(database: TestDatabase) async throws {
        let time = TestClock()
        let settings = ["deviceKeys.lockoutThreshold": "3"]
        try await withDevice(on: database, clock: time.clock, settings: settings) { app, owner, impostor in
            try await fail(app, impostor, times: 2, from: Self.attacker)
            time.advance(.seconds(15 * 60 + 1))
            try await fail(app, impostor, times: 2, from: Self.attacker)
            #expect(try await signIn(app, owner, from: Self.attacker))
            try await fail(app, impostor, times: 2, from: Self.attacker)
            time.advance(.seconds(15 * 60 - 1))
            try await fail(app, impostor, times: 1, from: Self.attacker)
            #expect(try await signIn(app, owner, from: Self.attacker) == false)
        }
    }

    @Test(
        "an IPv6 attacker is locked out by its /64, whichever of its addresses it uses",
        arguments: TestDatabase.available)
    func ipv6BySlash64(database: TestDatabase) async throws {
        try await withDevice(on: database) { app, owner, impostor in
            for host in 1...5 { try await fail(app, impostor, times: 1, from: "2001:db8:1:2::\(host)") }
            #expect(try await signIn(app, owner, from: "2001:db8:1:2::99") == false)
            #expect(try await signIn(app, owner, from: "2001:db8:1:3::1"))
        }
    }

    @Test("the device list shows when the last lock ends", arguments: TestDatabase.available)
    func listShowsTheLock(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let api = DeviceAPI(app: app)
            let (_, bearer) = try await makeAccount(app)
            let owner = try DeviceClient(.iOS)
            try await api.register(owner, bearer: bearer)
            let impostor = try DeviceClient(.iOS, fingerprint: owner.fingerprint)
            try await fail(app, impostor, times: 5, from: Self.attacker)
            time.advance(.seconds(60))
            try await fail(app, impostor, times: 5, from: "198.51.100.8")
            let listed = try await api.send(.GET, "/api/v1/devices", bearer: bearer)
            let devices = try #require(try listed.json()["devices"] as? [[String: Any]])
            let lockedUntil = ISO8601.string(time.clock.now().addingTimeInterval(15 * 60))
            #expect(devices.first?["lockedUntil"] as? String == lockedUntil)
            time.advance(.seconds(15 * 60))
            let later = try await api.send(.GET, "/api/v1/devices", bearer: bearer)
            let unlocked = try #require((try later.json()["devices"] as? [[String: Any]])?.first)
            #expect(unlocked["id"] as? String == devices.first?["id"] as? String)
            #expect(unlocked["lockedUntil"] as? String == nil)
        }
    }

    @Test("a lock is kept in the database: another instance on it sees it", arguments: TestDatabase.available)
    func sharedAcrossInstances(database: TestDatabase) async throws {
        let (url, dispose) = try await database.provision()
        do {
            let owner = try DeviceClient(.iOS)
            try await withHale(databaseURL: url) { (app: Application) async throws in
                let (_, bearer) = try await makeAccount(app)
                try await DeviceAPI(app: app).register(owner, bearer: bearer)
                let impostor = try DeviceClient(.iOS, fingerprint: owner.fingerprint)
                try await fail(app, impostor, times: 5, from: Self.attacker)
            }
            try await withHale(databaseURL: url) { (other: Application) async throws in
                #expect(try await signIn(other, owner, from: Self.attacker) == false)
                #expect(try await signIn(other, owner, from: Self.owner))
            }
        } catch {
            await dispose()
            throw error
        }
        await dispose()
    }

    @Test("counts that can lock nothing any more are purged; live locks are kept", arguments: TestDatabase.available)
    func purge(database: TestDatabase) async throws {
        let time = TestClock()
        let settings = ["deviceKeys.lockoutThreshold": "3"]
        try await withDevice(on: database, clock: time.clock, settings: settings) { app, owner, impostor in
            try await fail(app, impostor, times: 1, from: Self.attacker)
            time.advance(.seconds(10 * 60))
            try await fail(app, impostor, times: 3, from: "198.51.100.8")
            time.advance(.seconds(5 * 60 + 1))
            #expect(try await app.hale.devices.forgetStaleSignInFailures() == 1)
            #expect(try await signIn(app, owner, from: "198.51.100.8") == false)
            time.advance(.seconds(10 * 60))
            #expect(try await app.hale.devices.forgetStaleSignInFailures() == 1)
            #expect(try await app.hale.devices.forgetStaleSignInFailures() == 0)
        }
    }
}
