import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting
import WebAuthn

@testable import HaleServer

/// The product events that raise security alerts, each writing its alert in its own transaction.
@Suite("Push: security alerts from product events")
struct SecurityAlertEventTests {
    static let passkeySettings = ["passkeys.rpId": "localhost", "passkeys.origins": "http://localhost:8080"]

    private struct RegisterBody: Encodable {
        let credential: RegistrationResponseJSON
    }

    private struct Options: Decodable {
        let options: CreationOptions
    }

    private func registerPasskey(_ api: DeviceAPI, bearer: String) async throws {
        let optionsResponse = try await api.post("/api/mobile/biometric/register/options", [:], bearer: bearer)
        let options = try api.decode(Options.self, optionsResponse).options
        var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
        let body = try JSONEncoder().encode(RegisterBody(credential: passkey.register(options: options)))
        let verify = try await api.app.testing().sendRequest(
            .POST, "/api/mobile/biometric/register/verify", headers: .json(bearer: bearer), body: ByteBuffer(data: body)
        )
        #expect(verify.status == .ok, "\(verify.body.string)")
    }

    @Test("registering a device and then a passkey on it alert the other device only")
    func deviceThenPasskey() async throws {
        try await PushHarness.run(settings: Self.passkeySettings) { push in
            let api = DeviceAPI(app: push.app)
            let (account, bearer) = try await makeSignedInAccount(push.app)
            let tablet = try await push.device(of: account.id, fcm: "fcm-tablet")
            let client = try DeviceClient(.iOS)
            let phone = try #require(DeviceID(try await api.register(client, bearer: bearer)))
            try await push.app.hale.devices.setPushToken(.apns("ab01"), of: phone, account: account.id)
            let access = try api.decode(DeviceAPI.SignedIn.self, try await api.signIn(client)).tokens.accessToken
            try await registerPasskey(api, bearer: access)
            let messages = try await push.outbox()
            #expect(messages.map(\.deviceId) == [tablet, tablet])
            #expect(messages.map { $0.data.contains("new_device") } == [true, false])
            #expect(messages.map { $0.data.contains("new_passkey") } == [false, true])
            let types = try await push.app.hale.audit.events(of: account.id).map(\.eventType)
            #expect(types.contains("passkey_registered"))
        }
    }

    @Test("deleting a passkey is recorded and alerts the account's devices")
    func passkeyDeleted() async throws {
        try await PushHarness.run(settings: Self.passkeySettings) { push in
            let api = DeviceAPI(app: push.app)
            let (account, bearer) = try await makeSignedInAccount(push.app)
            let tablet = try await push.device(of: account.id, fcm: "fcm-tablet")
            try await registerPasskey(api, bearer: bearer)
            let passkey = try #require(try await push.app.hale.passkeys.list(for: account.id).first)
            let deleted = try await api.send(
                .DELETE, "/api/mobile/biometric/passkeys/\(passkey.id.uuidString)?confirm=true", bearer: bearer)
            #expect(deleted.status == .ok, "\(deleted.body.string)")
            let removed = try await push.outbox().filter { $0.data.contains("passkey_removed") }
            #expect(removed.map(\.deviceId) == [tablet])
            let event = try #require(
                try await push.app.hale.audit.events(of: account.id).first { $0.eventType == "passkey_deleted" })
            #expect(event.details.contains(passkey.id.uuidString.lowercased()))
        }
    }

    @Test("signing out everywhere alerts the account's devices only when it removed recent credentials")
    func signOutRemovingRecentCredentials() async throws {
        try await PushHarness.run(settings: Self.passkeySettings) { push in
            let api = DeviceAPI(app: push.app)
            let (account, _) = try await makeSignedInAccount(push.app)
            let tablet = try await push.device(of: account.id, fcm: "fcm-tablet")
            try await push.app.hale.sessions.signOutEverywhere(account.id)
            #expect(try await push.outbox().isEmpty, "a plain sign-out everywhere tells no one")
            try await registerPasskey(api, bearer: try await freshSignIn(push.app, account.id))
            let before = try await push.outbox().count
            try await push.app.hale.sessions.signOutEverywhere(
                account.id, removingCredentialsAddedWithin: .seconds(3600))
            let alerts = try await push.outbox().dropFirst(before)
            #expect(alerts.map(\.deviceId) == [tablet])
            #expect(alerts.allSatisfy { $0.data.contains("recent_credentials_removed") })
            #expect(try await push.app.hale.passkeys.list(for: account.id).isEmpty)
        }
    }

    @Test("a social sign-in from an installation new to the account alerts the account's devices")
    func socialNewInstallation() async throws {
        try await PushHarness.run { push in
            let social = SocialSignInServiceTests.service(push.app, SocialSignInServiceTests.identity())
            let logger = SocialSignInServiceTests.logger
            let first = try await social.signIn(
                SocialSignInServiceTests.request(deviceTokens: ["fcm-1"]), logger: logger)
            let phone = try await push.device(of: first.accountId, fcm: "fcm-phone")
            _ = try await social.signIn(SocialSignInServiceTests.request(deviceTokens: ["fcm-1"]), logger: logger)
            #expect(try await push.outbox().isEmpty, "a sign-up and a known installation raise no alert")
            _ = try await social.signIn(SocialSignInServiceTests.request(deviceTokens: ["fcm-2"]), logger: logger)
            let message = try await push.message(to: phone)
            #expect(message.data.contains("new_sign_in_device"))
            _ = try await social.signIn(SocialSignInServiceTests.request(deviceTokens: ["fcm-phone"]), logger: logger)
            #expect(try await push.outbox().count == 1, "the installation that signed in is not alerted")
            let types = try await push.app.hale.audit.events(of: first.accountId).map(\.eventType)
            // The sign-up kept the address Google verified.
            #expect(types == ["new_device_sign_in", "new_device_sign_in", "email_address_added"])
        }
    }

    @Test("a change whose alert cannot be written is rolled back with it", arguments: TestDatabase.available)
    func sameTransaction(on database: TestDatabase) async throws {
        try await PushHarness.run(on: database) { push in
            let (account, _) = try await makeSignedInAccount(push.app)
            let lost = try await push.device(of: account.id, fcm: "fcm-lost")
            _ = try await push.device(of: account.id, fcm: "fcm-other")
            try await push.app.hale.database.sql.raw("DROP TABLE push_outbox").run()
            await #expect(throws: (any Error).self) {
                try await push.app.hale.devices.deactivate(lost, of: account.id, ip: nil)
            }
            #expect(try await push.stored(lost, of: account.id)?.deactivatedAt == nil)
            #expect(try await push.app.hale.audit.events(of: account.id).isEmpty)
        }
    }
}
