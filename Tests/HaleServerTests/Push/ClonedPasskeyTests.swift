import ByteEncoding
import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting
import WebAuthn

@testable import HaleServer

/// A passkey sign-in whose signature verifies but whose counter went back, or whose backup eligibility changed: the
/// passkey is marked, the event audited and the account's devices alerted, then `passkeys.clonedAuthenticators`
/// refuses or lets it in.
@Suite("Passkeys: a cloned authenticator is caught")
struct ClonedPasskeyTests {
    static let settings = ["passkeys.rpId": "localhost", "passkeys.origins": "http://localhost:8080"]

    /// One account with a passkey signed in once at counter 5, and a phone with a push token.
    struct Owner {
        let push: PushHarness
        let account: AccountID
        let phone: DeviceID
        var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")

        static func make(_ push: PushHarness) async throws -> Owner {
            let (account, token) = try await makeSignedInAccount(push.app)
            var owner = Owner(
                push: push, account: account.id, phone: try await push.device(of: account.id, fcm: "fcm-1"))
            let options = try await owner.post(
                "/api/mobile/biometric/register/options", ["deviceName": "Pixel 8"], token)
            let creation = try JSONDecoder().decode(Options<CreationOptions>.self, from: Data(buffer: options.body))
            let credential = owner.passkey.register(options: creation.options)
            let registered = try await owner.post(
                "/api/mobile/biometric/register/verify", ["credential": credential], token)
            #expect(registered.status == .ok, "\(registered.body.string)")
            #expect(try await owner.signIn(signCount: 5).status == .ok)
            return owner
        }

        struct Options<T: Decodable>: Decodable {
            let options: T
            let uid: String?
        }

        func post(_ path: String, _ body: some Encodable, _ bearer: String? = nil) async throws -> TestingHTTPResponse {
            try await push.app.testing().sendRequest(
                .POST, path, headers: .json(bearer: bearer), body: ByteBuffer(data: try JSONEncoder().encode(body)))
        }

        /// Signs in with an assertion at `signCount` carrying `flags`; a forged one's signature is over other bytes.
        func signIn(
            signCount: UInt32, flags: AuthenticatorFlags = [.userPresent, .userVerified], forged: Bool = false
        ) async throws -> TestingHTTPResponse {
            let response = try await post("/api/mobile/biometric/authenticate/options", [String: String]())
            let options = try JSONDecoder().decode(Options<RequestOptions>.self, from: Data(buffer: response.body))
            let challenge = Array(try #require(Base64URL.decode(options.options.challenge)))
            var assertion = passkey.assertion(challenge: challenge, signCount: signCount, flags: flags)
            if forged { assertion.response.signature = Base64URL.encode(passkey.sign([1])) }
            return try await post(
                "/api/mobile/biometric/authenticate/verify",
                Answer(credential: assertion, uid: try #require(options.uid)))
        }

        struct Answer: Encodable {
            let credential: AuthenticationResponseJSON
            let uid: String
        }

        var stored: PasskeyCredential {
            get async throws { try #require(try await push.app.hale.passkeys.list(for: account).first) }
        }

        /// The `passkey_clone_suspected` security alerts in the push outbox (registering the passkey raised
        /// `new_passkey` too).
        var cloneAlerts: [PushOutboxMessage] {
            get async throws { try await push.outbox().filter { $0.data.contains("passkey_clone_suspected") } }
        }

        var cloneEvents: [AuditEvent] {
            get async throws {
                try await push.app.hale.audit.events(of: account).filter { $0.eventType == "passkey_clone_suspected" }
            }
        }
    }

    @Test(
        "refuse, the default: a counter that went back is a 401, and marked, audited and alerted",
        arguments: TestDatabase.available)
    func regressionRefused(database: TestDatabase) async throws {
        try await PushHarness.run(on: database, settings: Self.settings) { push in
            let owner = try await Owner.make(push)
            let refused = try await owner.signIn(signCount: 3)
            #expect(refused.status == .unauthorized)
            #expect(try refused.coreError().error.code == "PASSKEY_AUTHENTICATION_FAILED")
            let passkey = try await owner.stored
            #expect(passkey.suspectedCloneReason == "sign_count_regression")
            #expect(passkey.suspectedCloneAt == PushHarness.start)
            #expect(passkey.signCount == 5)
            let event = try #require(try await owner.cloneEvents.first)
            #expect(try await owner.cloneEvents.count == 1)
            #expect(event.details.contains(#""refused":"true""#))
            #expect(event.details.contains(#""signal":"sign_count_regression""#))
            #expect(event.details.contains(passkey.id.uuidString.lowercased()))
            let alerts = try await owner.cloneAlerts
            #expect(alerts.map(\.deviceId) == [owner.phone])
            #expect(alerts.first?.kind == "security_alert")
            // The real authenticator, counting on, still signs in.
            #expect(try await owner.signIn(signCount: 6).status == .ok)
        }
    }

    @Test("a changed backup eligibility is a sign too")
    func backupEligibilityChanged() async throws {
        try await PushHarness.run(settings: Self.settings) { push in
            let owner = try await Owner.make(push)
            let refused = try await owner.signIn(signCount: 6, flags: [.userPresent, .userVerified, .backupEligible])
            #expect(refused.status == .unauthorized)
            #expect(try await owner.stored.suspectedCloneReason == "backup_eligibility_changed")
            #expect(try await owner.stored.backupEligible == false)
            #expect(try await owner.cloneEvents.count == 1)
        }
    }

    @Test("flag: the sign-in is let in, marked and alerted, and the counter never goes back")
    func regressionFlagged() async throws {
        try await PushHarness.run(
            settings: Self.settings.merging(["passkeys.clonedAuthenticators": "flag"]) { $1 }
        ) { push in
            let owner = try await Owner.make(push)
            let allowed = try await owner.signIn(signCount: 2)
            #expect(allowed.status == .ok, "\(allowed.body.string)")
            let passkey = try await owner.stored
            #expect(passkey.suspectedCloneReason == "sign_count_regression")
            #expect(passkey.signCount == 5)
            #expect(passkey.lastUsedAt == PushHarness.start)
            #expect(try await owner.cloneEvents.first?.details.contains(#""refused":"false""#) == true)
            #expect(try await owner.cloneAlerts.map(\.deviceId) == [owner.phone])
        }
    }

    @Test("a forged assertion with a lower counter or another backup eligibility marks nothing")
    func forgedMarksNothing() async throws {
        try await PushHarness.run(settings: Self.settings) { push in
            let owner = try await Owner.make(push)
            #expect(try await owner.signIn(signCount: 1, forged: true).status == .unauthorized)
            let flags: AuthenticatorFlags = [.userPresent, .userVerified, .backupEligible]
            #expect(try await owner.signIn(signCount: 9, flags: flags, forged: true).status == .unauthorized)
            #expect(try await owner.stored.suspectedCloneAt == nil)
            #expect(try await owner.cloneEvents.isEmpty)
            #expect(try await owner.cloneAlerts.isEmpty)
        }
    }

    @Test("passkeys.clonedAuthenticators other than refuse or flag is a configuration error")
    func configuration() async throws {
        await #expect(throws: ConfigError.self) {
            try await withHale(settings: ["passkeys.clonedAuthenticators": "ignore"]) { _ in }
        }
    }
}
