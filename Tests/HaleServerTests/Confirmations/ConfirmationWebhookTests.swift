import Crypto
import Foundation
import HaleTesting
import Testing
import Vapor

@testable import HaleServer

/// Answers sent to the app backend's webhook, HMAC-signed, retried until it takes them.
@Suite("Confirmations: the answer webhook")
struct ConfirmationWebhookTests {
    static let secret = "whsec-0123456789abcdef0123456789abcdef"

    static func settings(_ receiver: FakeWebhookReceiver) -> [String: String] {
        ["confirmations.webhookUrl": receiver.url, "confirmations.webhookSecret": secret]
    }

    static func approve(_ flow: ConfirmationHTTP) async throws -> String {
        let confirmation = try await flow.created()
        let id = try #require(confirmation["id"] as? String)
        let answered = try await flow.answer(id, "approve", signature: try flow.signature(confirmation, .approve))
        #expect(answered.status == .ok)
        return id
    }

    @Test("an answer is posted once, signed over the timestamp and the raw body", arguments: TestDatabase.available)
    func delivered(database: TestDatabase) async throws {
        let receiver = try await FakeWebhookReceiver.start()
        let clock = TestClock(ConfirmationHTTP.start)
        try await ConfirmationHTTP.run(on: database, clock: clock, settings: Self.settings(receiver)) { flow in
            let id = try await Self.approve(flow)
            let webhooks = try #require(flow.app.hale.confirmationWebhooks)
            #expect(try await webhooks.deliverDue(logger: flow.app.logger) == .init(delivered: 1))
            #expect(try await webhooks.deliverDue(logger: flow.app.logger) == .init())
            let request = try #require(receiver.received.first)
            #expect(receiver.received.count == 1)
            #expect(request.headers.first(name: "Hale-Webhook-Id") == id)
            let timestamp = Int(ConfirmationHTTP.start.timeIntervalSince1970)
            let mac = HMAC<SHA256>.authenticationCode(
                for: Array("\(timestamp).".utf8) + request.body, using: SymmetricKey(data: Array(Self.secret.utf8)))
            let hex = mac.map { String(format: "%02x", $0) }.joined()
            #expect(request.headers.first(name: "Hale-Signature") == "t=\(timestamp),v1=\(hex)")
            let body = try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
            #expect(body?["type"] as? String == "confirmation.answered")
            let answer = body?["confirmation"] as? [String: Any]
            #expect(answer?["id"] as? String == id)
            #expect(answer?["decision"] as? String == "approve")
            #expect(answer?["deviceId"] as? String == flow.deviceId)
            #expect((answer?["signature"] as? String)?.isEmpty == false)
            let state = try await SQLConfirmationRepository(database: flow.app.hale.database)
                .webhookState(of: try #require(ConfirmationID(id)))
            #expect(state?.status == "delivered" && state?.attempts == 1)
        }
        await receiver.stop()
    }

    @Test(
        "concurrent delivery passes post each answer once", .racesNeedPostgreSQL, arguments: TestDatabase.available)
    func concurrentPasses(database: TestDatabase) async throws {
        let receiver = try await FakeWebhookReceiver.start()
        let clock = TestClock(ConfirmationHTTP.start)
        try await ConfirmationHTTP.run(on: database, clock: clock, settings: Self.settings(receiver)) { flow in
            for _ in 0..<4 { _ = try await Self.approve(flow) }
            let webhooks = try #require(flow.app.hale.confirmationWebhooks)
            let logger = flow.app.logger
            let delivered = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 { group.addTask { try await webhooks.deliverDue(logger: logger).delivered } }
                return try await group.reduce(0, +)
            }
            #expect(delivered == 4)
            #expect(receiver.received.count == 4)
        }
        await receiver.stop()
    }

    @Test("a failing backend is retried after the backoff, not before, until it answers 2xx")
    func retried() async throws {
        let receiver = try await FakeWebhookReceiver.start()
        receiver.answer([500, 503])
        let clock = TestClock(ConfirmationHTTP.start)
        try await ConfirmationHTTP.run(clock: clock, settings: Self.settings(receiver)) { flow in
            let id = try #require(ConfirmationID(try await Self.approve(flow)))
            let webhooks = try #require(flow.app.hale.confirmationWebhooks)
            #expect(try await webhooks.deliverDue(logger: flow.app.logger) == .init(retried: 1))
            #expect(try await webhooks.deliverDue(logger: flow.app.logger) == .init(), "not due before its backoff")
            clock.advance(.seconds(3_600))
            #expect(try await webhooks.deliverDue(logger: flow.app.logger) == .init(retried: 1))
            clock.advance(.seconds(3_600))
            #expect(try await webhooks.deliverDue(logger: flow.app.logger) == .init(delivered: 1))
            let state = try await SQLConfirmationRepository(database: flow.app.hale.database).webhookState(of: id)
            #expect(state?.status == "delivered" && state?.attempts == 3)
            #expect(receiver.received.count == 3)
        }
        await receiver.stop()
    }

    @Test("without a webhook configured, nothing is queued")
    func notConfigured() async throws {
        try await ConfirmationHTTP.run { flow in
            #expect(flow.app.hale.confirmationWebhooks == nil)
            let id = try #require(ConfirmationID(try await Self.approve(flow)))
            let state = try await SQLConfirmationRepository(database: flow.app.hale.database).webhookState(of: id)
            #expect(state?.status == nil && state?.attempts == 0)
        }
    }

    @Test(
        "webhook settings are checked when the server starts",
        arguments: [
            ["confirmations.webhookUrl": "https://backend.example/hooks", "confirmations.webhookSecret": "short"],
            ["confirmations.webhookUrl": "https://backend.example/hooks"],
            ["confirmations.webhookUrl": "http://backend.example/hooks", "confirmations.webhookSecret": secret],
            ["confirmations.webhookSecret": secret],
        ])
    func badSettings(settings: [String: String]) throws {
        #expect(throws: ConfigError.self) { try HaleConfiguration(ConfigValues(settings)) }
    }
}
