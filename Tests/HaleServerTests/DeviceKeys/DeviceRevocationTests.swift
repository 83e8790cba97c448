import ByteEncoding
import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting
import WebAuthn

@testable import HaleServer

/// The device is the unit of revocation: deactivating or deleting it revokes its keys, its sessions and the passkeys
/// registered from it that live only there; the synced ones when asked. The answer and the audit event say which.
@Suite("HTTP: revoking a device revokes what signs in from it")
struct DeviceRevocationTests {
    /// An account with a device signed in with its key, and two passkeys registered from it: one device-bound, one
    /// synced (backup eligible).
    struct Phone {
        let api: DeviceAPI
        let bearer: String
        let account: AccountID
        let device: String
        let bound: String
        let synced: String

        static func make(_ app: Application) async throws -> Phone {
            let api = DeviceAPI(app: app)
            let (account, bearer) = try await makeAccount(app)
            let client = try DeviceClient(.iOS)
            let device = try await api.register(client, bearer: bearer)
            let access = try api.decode(DeviceAPI.SignedIn.self, try await api.signIn(client)).tokens.accessToken
            let bound = try await registerPasskey(api, bearer: access, synced: false)
            let synced = try await registerPasskey(api, bearer: access, synced: true)
            return Phone(
                api: api, bearer: try await freshSignIn(app, account.id), account: account.id, device: device,
                bound: bound, synced: synced)
        }

        /// Registers a passkey while signed in on the device; returns its id.
        static func registerPasskey(_ api: DeviceAPI, bearer: String, synced: Bool) async throws -> String {
            let options = try await api.post(
                "/api/mobile/biometric/register/options", ["deviceName": "iPhone"], bearer: bearer)
            let creation = try JSONDecoder().decode(Options.self, from: Data(buffer: options.body)).options
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            var credential = passkey.register(options: creation)
            if synced {
                let flags: AuthenticatorFlags = [.userPresent, .userVerified, .backupEligible, .backupState]
                credential = passkey.registration(
                    challenge: Array(Base64URL.decode(creation.challenge) ?? Data()),
                    authenticatorData: passkey.authenticatorData(flags: flags, attested: true))
            }
            let body = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(["credential": credential]))
            let verified = try await api.post(
                "/api/mobile/biometric/register/verify", try #require(body as? [String: any Sendable]), bearer: bearer)
            #expect(verified.status == .ok, "\(verified.body.string)")
            let listed = try await api.send(.GET, "/api/mobile/biometric/passkeys", bearer: bearer)
            let passkeys = try JSONDecoder().decode(Passkeys.self, from: Data(buffer: listed.body)).passkeys
            return try #require(passkeys.first { $0.backupEligible == synced }?.id)
        }

        struct Options: Decodable { let options: CreationOptions }
        struct Passkeys: Decodable {
            struct Passkey: Decodable {
                let id: String
                let backupEligible: Bool
            }
            let passkeys: [Passkey]
        }

        func passkeys() async throws -> [String] {
            let listed = try await api.send(.GET, "/api/mobile/biometric/passkeys", bearer: bearer)
            return try JSONDecoder().decode(Passkeys.self, from: Data(buffer: listed.body)).passkeys.map(\.id)
        }

        func revoked(_ response: TestingHTTPResponse) throws -> [String: Any] {
            #expect(response.status == .ok, "\(response.body.string)")
            return try #require(try response.json()["revoked"] as? [String: Any])
        }

        func auditDetails(_ type: String, _ app: Application) async throws -> String {
            try #require(try await app.hale.audit.events(of: account).first { $0.eventType == type }?.details)
        }
    }

    @Test(
        "deactivating revokes the keys, the sessions and the device-bound passkey; the synced one is kept",
        arguments: TestDatabase.available)
    func deactivate(database: TestDatabase) async throws {
        try await withHale(on: database, settings: MobileBiometricTests.settings) { app in
            let phone = try await Phone.make(app)
            let revoked = try phone.revoked(
                try await phone.api.send(.POST, "/api/v1/devices/\(phone.device)/deactivate", bearer: phone.bearer))
            #expect(revoked["deviceKeys"] as? Int == 1)
            #expect(revoked["sessions"] as? Int == 1)
            #expect(revoked["passkeys"] as? [String] == [phone.bound])
            #expect(try await phone.passkeys() == [phone.synced])
            let details = try await phone.auditDetails("device_deactivated", app)
            #expect(details.contains(#""passkeys":"\#(phone.bound)""#), "\(details)")
            #expect(details.contains(#""deviceKeys":"1""#) && details.contains(#""sessions":"1""#))
        }
    }

    @Test(
        "deleting with revokeSyncedPasskeys=true deletes the synced passkey too", arguments: TestDatabase.available)
    func deleteWithSynced(database: TestDatabase) async throws {
        try await withHale(on: database, settings: MobileBiometricTests.settings) { app in
            let phone = try await Phone.make(app)
            let revoked = try phone.revoked(
                try await phone.api.send(
                    .DELETE, "/api/v1/devices/\(phone.device)?revokeSyncedPasskeys=true", bearer: phone.bearer))
            #expect(Set(revoked["passkeys"] as? [String] ?? []) == [phone.bound, phone.synced])
            #expect(try await phone.passkeys().isEmpty)
            let details = try await phone.auditDetails("device_deleted", app)
            #expect(details.contains(phone.bound) && details.contains(phone.synced))
        }
    }

    @Test("deleting without it keeps the synced passkey, no longer tied to a device")
    func deleteKeepsSynced() async throws {
        try await withHale(settings: MobileBiometricTests.settings) { app in
            let phone = try await Phone.make(app)
            let revoked = try phone.revoked(
                try await phone.api.send(.DELETE, "/api/v1/devices/\(phone.device)", bearer: phone.bearer))
            #expect(revoked["passkeys"] as? [String] == [phone.bound])
            #expect(try await phone.passkeys() == [phone.synced])
            let kept = try #require(try await app.hale.passkeys.list(for: phone.account).first)
            #expect(kept.deviceId == nil)
        }
    }

    @Test("the device list shows each device's sign-in methods")
    func signInMethods() async throws {
        try await withHale(settings: MobileBiometricTests.settings) { app in
            let phone = try await Phone.make(app)
            let listed = try await phone.api.send(.GET, "/api/v1/devices", bearer: phone.bearer)
            let device = try #require((try listed.json()["devices"] as? [[String: Any]])?.first)
            #expect(device["signInMethods"] as? [String] == ["device_key", "passkey"])
            _ = try await phone.api.send(.POST, "/api/v1/devices/\(phone.device)/deactivate", bearer: phone.bearer)
            let after = try await phone.api.send(.GET, "/api/v1/devices", bearer: phone.bearer)
            let deactivated = try #require((try after.json()["devices"] as? [[String: Any]])?.first)
            // The synced passkey it registered is kept, and may still be on the phone: the list says so.
            #expect(deactivated["signInMethods"] as? [String] == ["passkey"])
        }
    }

    @Test("revokeSyncedPasskeys other than true or false is a 400, and nothing is revoked")
    func badValue() async throws {
        try await withHale(settings: MobileBiometricTests.settings) { app in
            let phone = try await Phone.make(app)
            let response = try await phone.api.send(
                .POST, "/api/v1/devices/\(phone.device)/deactivate?revokeSyncedPasskeys=yes", bearer: phone.bearer)
            #expect(response.status == .badRequest)
            #expect(try response.coreError().error.message == "revokeSyncedPasskeys must be true or false")
            #expect(try await phone.passkeys().count == 2)
        }
    }
}
