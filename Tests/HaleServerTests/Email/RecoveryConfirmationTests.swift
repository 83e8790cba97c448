import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// A new device's recovery request reaches the account's phone as seed 002's confirmation push: the phone approves
/// by signing it with its device key and typing the two digits the new device shows, or denies it, which cancels the
/// recovery.
@Suite("HTTP: recovery approved through a confirmation push")
struct RecoveryConfirmationTests {
    /// An account with a verified address and a phone signed in with its device key, push token set.
    struct Phone {
        let app: Application
        let account: AccountID
        let client: DeviceClient
        let deviceId: String
        let token: String

        static func signedIn(_ app: Application) async throws -> Phone {
            let (account, fresh) = try await makeSignedInAccount(app, email: "person@example.com")
            try await EmailAddressTests.API(app: app).add("person@example.com", bearer: fresh)
            let api = DeviceAPI(app: app)
            let client = try DeviceClient(.iOS)
            let deviceId = try await api.register(client, bearer: fresh)
            let token = try api.decode(DeviceAPI.SignedIn.self, try await api.signIn(client)).tokens.accessToken
            let set = try await api.send(
                .PUT, "/api/v1/devices/push-token", ["deviceId": deviceId, "fcmToken": "fcm-token-1"],
                bearer: token)
            #expect(set.status == .ok, "\(set.body.string)")
            return Phone(app: app, account: account.id, client: client, deviceId: deviceId, token: token)
        }

        /// The confirmations waiting on the phone.
        func pending() async throws -> [[String: Any]] {
            let listed = try await app.testing().sendRequest(
                .GET, "/api/v1/confirmations", headers: .bearer(token))
            return try listed.json()["confirmations"] as? [[String: Any]] ?? []
        }

        func answer(_ confirmation: [String: Any], _ decision: ConfirmationMessage.Decision, pairingCode: String?)
            async throws -> TestingHTTPResponse
        {
            let message = ConfirmationMessage(
                confirmationId: try #require(ConfirmationID(confirmation["id"] as? String ?? "")),
                actionType: confirmation["actionType"] as? String ?? "",
                actionPayload: confirmation["actionPayload"] as? String ?? "", decision: decision)
            var body = ["decision": decision.rawValue, "signature": try client.sign(message.challenge)]
            body["pairingCode"] = pairingCode
            return try await app.testing().sendRequest(
                .POST, "/api/v1/confirmations/\(confirmation["id"] as? String ?? "")/answer",
                headers: .json(bearer: token), body: ByteBuffer(data: try JSONEncoder().encode(body)))
        }
    }

    static func pushes(_ app: Application) async throws -> [PushOutboxMessage] {
        try await app.hale.database.sql.select().column("*").from("push_outbox")
            .where("kind", .equal, "confirmation_request")
            .all(decoding: PushOutboxMessage.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    @Test(
        "the phone is pushed the request and approves it with its key and the typed code; the new device enrols",
        arguments: TestDatabase.available)
    func approvedFromThePush(database: TestDatabase) async throws {
        try await withHale(on: database, settings: DeviceApprovedRecoveryTests.settings) { app in
            let phone = try await Phone.signedIn(app)
            let api = EmailRecoveryTests.API(app: app)
            let asked = try await DeviceApprovedRecoveryTests.ask(api, "person@example.com")
            let id = try #require(asked["recoveryId"] as? String)
            let code = try #require(asked["pairingCode"] as? String)

            let pushes = try await Self.pushes(app)
            #expect(pushes.map(\.deviceId.description) == [phone.deviceId])
            let confirmation = try #require(try await phone.pending().first)
            #expect(confirmation["actionType"] as? String == "account.recovery")
            #expect(confirmation["actionPayload"] as? String == #"{"recoveryId":"\#(id.lowercased())"}"#)
            let pushed =
                try JSONSerialization.jsonObject(with: Data((pushes.first?.data ?? "").utf8)) as? [String: String]
            #expect(pushed?["actionPayload"] == confirmation["actionPayload"] as? String, "no pairing code in the push")

            let missing = try await phone.answer(confirmation, .approve, pairingCode: nil)
            #expect(missing.status == .badRequest, "\(missing.body.string)")
            let wrong = try await phone.answer(confirmation, .approve, pairingCode: code == "00" ? "01" : "00")
            #expect(wrong.status == .notFound)
            #expect(try await phone.pending().count == 1, "a mistyped code leaves it waiting")
            #expect(try await api.claim(asked).status == .conflict)

            let approved = try await phone.answer(confirmation, .approve, pairingCode: code)
            #expect(approved.status == .ok, "\(approved.body.string)")
            let claimed = try await api.claim(asked)
            #expect(claimed.status == .ok, "\(claimed.body.string)")
            let recovery = try #require(try claimed.json()["accessToken"] as? String)
            try await DeviceAPI(app: app).register(try DeviceClient(.android), bearer: recovery)
            let types = try await app.hale.audit.events(of: phone.account).map(\.eventType)
            #expect(types.contains("account_recovery_approved") && types.contains("confirmation_approved"))
        }
    }

    @Test("denying it on the phone cancels the recovery")
    func deniedFromThePush() async throws {
        try await withHale(settings: DeviceApprovedRecoveryTests.settings) { app in
            let phone = try await Phone.signedIn(app)
            let api = EmailRecoveryTests.API(app: app)
            let asked = try await DeviceApprovedRecoveryTests.ask(api, "person@example.com")
            let confirmation = try #require(try await phone.pending().first)
            let denied = try await phone.answer(confirmation, .deny, pairingCode: nil)
            #expect(denied.status == .ok, "\(denied.body.string)")
            let claim = try await api.claim(asked)
            #expect(try claim.coreError().error.code == "RECOVERY_CANCELLED")
            let types = try await app.hale.audit.events(of: phone.account).map(\.eventType)
            #expect(types.contains("account_recovery_cancelled") && types.contains("confirmation_denied"))
        }
    }

    @Test("an account with no device key is asked no confirmation; an address nobody verified asks nobody")
    func nobodyToAsk() async throws {
        try await withHale(settings: DeviceApprovedRecoveryTests.settings) { app in
            let (_, fresh) = try await makeSignedInAccount(app, email: "person@example.com")
            try await EmailAddressTests.API(app: app).add("person@example.com", bearer: fresh)
            let api = EmailRecoveryTests.API(app: app)
            _ = try await DeviceApprovedRecoveryTests.ask(api, "person@example.com")
            _ = try await DeviceApprovedRecoveryTests.ask(api, "nobody@example.com")
            let rows = try await app.hale.database.sql.select().column("id").from("confirmations").all()
            #expect(rows.isEmpty)
        }
    }

    @Test("its answer goes to no webhook, and pairingCode answers no other confirmation")
    func onlyForRecoveries() async throws {
        let settings = DeviceApprovedRecoveryTests.settings.merging([
            "confirmations.webhookUrl": "https://backend.example/hooks",
            "confirmations.webhookSecret": ConfirmationWebhookTests.secret,
        ]) { $1 }
        try await withHale(settings: settings) { app in
            let phone = try await Phone.signedIn(app)
            let asked = try await DeviceApprovedRecoveryTests.ask(
                EmailRecoveryTests.API(app: app), "person@example.com")
            let recovery = try #require(try await phone.pending().first)
            let approved = try await phone.answer(
                recovery, .approve, pairingCode: try #require(asked["pairingCode"] as? String))
            #expect(approved.status == .ok)
            let hooks = try await app.hale.database.sql.select().column("webhook_status").from("confirmations")
                .all().map { try $0.decodeNil(column: "webhook_status") }
            #expect(hooks == [true])

            let adminKey = try await app.hale.adminKeys.create(name: "backend").key
            let made = try await app.testing().sendRequest(
                .POST, "/api/v1/admin/confirmations", headers: .json(bearer: adminKey),
                body: .json(#"{"accountId":"\#(phone.account)","actionType":"payment.approve"}"#))
            #expect(made.status == .created)
            let payment = try #require(try made.json()["confirmation"] as? [String: Any])
            let refused = try await phone.answer(payment, .approve, pairingCode: "42")
            #expect(refused.status == .badRequest)
            #expect(try await phone.answer(payment, .approve, pairingCode: nil).status == .ok)
        }
    }
}
