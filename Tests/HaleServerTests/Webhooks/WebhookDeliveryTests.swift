import Foundation
import HaleTesting
import Logging
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

@Suite("Webhooks: delivery, in order per account, retried, signed")
struct WebhookDeliveryTests {
    static let logger = Logger(label: "test.webhooks")

    /// The received bodies' event types and account ids.
    static func received(_ receiver: FakeWebhookReceiver) throws -> [(type: String, account: String?)] {
        try receiver.received.map { received in
            let body = try #require(try JSONSerialization.jsonObject(with: Data(received.body)) as? [String: Any])
            return (body["type"] as? String ?? "", (body["data"] as? [String: Any])?["accountId"] as? String)
        }
    }

    @Test(
        "a failing endpoint holds that account's later events until it answers, and no other account's",
        arguments: TestDatabase.available)
    func orderPerAccount(database: TestDatabase) async throws {
        let receiver = try await FakeWebhookReceiver.start()
        let time = TestClock(Date())
        try await withHale(on: database, clock: time.clock, settings: ["webhooks.retrySchedule": "10s,10s"]) { app in
            let webhooks = app.hale.webhooks
            let (endpoint, secret) = try await webhooks.add(url: receiver.url, eventTypes: ["*"])
            let (ana, _) = try await makeAccount(app, email: "ana@example.com")
            _ = try await app.hale.healthConsents.grant(platform: .apple, permissions: [.steps], to: ana.id)
            receiver.answer([503])
            var report = try await webhooks.deliverDue(logger: Self.logger)
            #expect(report == Webhooks.Report(delivered: 0, retried: 1, failed: 0))
            let (bo, _) = try await makeAccount(app, email: "bo@example.com")
            report = try await webhooks.deliverDue(logger: Self.logger)
            #expect(report.delivered == 1)
            #expect(try Self.received(receiver).map(\.account) == [ana.id.description, bo.id.description])
            time.advance(.seconds(11))
            report = try await webhooks.deliverDue(logger: Self.logger)
            #expect(report.delivered == 2)
            #expect(
                try Self.received(receiver).map(\.type) == [
                    "account.created", "account.created", "account.created", "consent.granted",
                ])
            let metrics = try await app.testing().sendRequest(.GET, "/metrics").body.string
            #expect(metrics.contains(#"hale_webhook_deliveries_total{outcome="retried"}"#))
            let deliveries = try await webhooks.deliveries(endpoint: endpoint.id)
            let first = try #require(deliveries.last)
            #expect(first.status == "delivered" && first.attempts == 2)
            #expect(first.history.map(\.statusCode) == [503, 200])
            #expect(first.history.first?.error == "http_503")
            for received in receiver.received {
                let id = try #require(received.headers.first(name: "webhook-id"))
                let timestamp = try #require(received.headers.first(name: "webhook-timestamp").flatMap(Int.init))
                #expect(
                    received.headers.first(name: "webhook-signature")
                        == WebhookSignature.header(
                            id: id, timestamp: timestamp, body: String(decoding: received.body, as: UTF8.self),
                            secrets: [secret]))
            }
        }
        await receiver.stop()
    }

    @Test("after the schedule a delivery fails, and the account's next event goes; a replay sends it again")
    func givingUpAndReplaying() async throws {
        let receiver = try await FakeWebhookReceiver.start()
        let time = TestClock(Date())
        try await withHale(clock: time.clock, settings: ["webhooks.retrySchedule": "1s"]) { app in
            let webhooks = app.hale.webhooks
            _ = try await webhooks.add(url: receiver.url, eventTypes: ["account.created", "consent.granted"])
            let (ana, _) = try await makeAccount(app)
            _ = try await app.hale.healthConsents.grant(platform: .apple, permissions: [.steps], to: ana.id)
            receiver.answer([500, 500])
            _ = try await webhooks.deliverDue(logger: Self.logger)
            time.advance(.seconds(2))
            let report = try await webhooks.deliverDue(logger: Self.logger)
            #expect(report == Webhooks.Report(delivered: 1, retried: 0, failed: 1))
            let failed = try #require(try await webhooks.deliveries(status: .failed).first)
            #expect(failed.attempts == 2 && failed.eventType == "account.created")
            #expect(try await webhooks.replay(failed.id))
            #expect(try await webhooks.deliverDue(logger: Self.logger).delivered == 1)
            #expect(try Self.received(receiver).map(\.type).suffix(2) == ["consent.granted", "account.created"])
            #expect(try await webhooks.replay(99_999) == false)
        }
        await receiver.stop()
    }

    @Test("after a rotation both secrets sign until the overlap ends; a test event reaches one endpoint")
    func rotationAndTest() async throws {
        let receiver = try await FakeWebhookReceiver.start()
        let time = TestClock(Date())
        try await withHale(clock: time.clock, settings: ["webhooks.secretOverlap": "1h"]) { app in
            let webhooks = app.hale.webhooks
            let (endpoint, old) = try await webhooks.add(url: receiver.url, eventTypes: ["account.deleted"])
            let rotated = try #require(try await webhooks.rotateSecret(of: endpoint.id))
            let new = rotated.secret
            #expect(rotated.previousSecretUntil == time.clock.now().addingTimeInterval(3_600))
            #expect(try await webhooks.test(endpoint.id) != nil)
            _ = try await webhooks.deliverDue(logger: Self.logger)
            time.advance(.seconds(3_601))
            #expect(try await webhooks.test(endpoint.id) != nil)
            _ = try await webhooks.deliverDue(logger: Self.logger)
            let signatures = receiver.received.compactMap { $0.headers.first(name: "webhook-signature") }
            #expect(signatures.count == 2)
            #expect(signatures[0].split(separator: " ").count == 2)
            #expect(signatures[1].split(separator: " ").count == 1)
            let first = receiver.received[0]
            let expected = WebhookSignature.header(
                id: first.headers.first(name: "webhook-id") ?? "",
                timestamp: Int(first.headers.first(name: "webhook-timestamp") ?? "") ?? 0,
                body: String(decoding: first.body, as: UTF8.self), secrets: [new, old])
            #expect(signatures[0] == expected)
            #expect(try Self.received(receiver).map(\.type) == ["webhook.test", "webhook.test"])
            #expect(try await webhooks.test(UUID()) == nil)
        }
        await receiver.stop()
    }

    @Test("an endpoint that cannot be reached is retried, with the reason recorded")
    func unreachable() async throws {
        try await withHale(settings: ["webhooks.retrySchedule": "1h"]) { app in
            _ = try await app.hale.webhooks.add(url: "http://127.0.0.1:9/hooks", eventTypes: ["*"])
            _ = try await makeAccount(app)
            #expect(try await app.hale.webhooks.deliverDue(logger: Self.logger).retried == 1)
            let delivery = try #require(try await app.hale.webhooks.deliveries().first)
            #expect(delivery.status == "pending" && delivery.lastError == "unreachable")
            #expect(delivery.history.first?.statusCode == nil)
        }
    }
}

@Suite("Webhooks: retention")
struct WebhookPurgeTests {
    @Test(
        "events past webhooks.retention go, in batches, once no delivery of theirs waits",
        arguments: TestDatabase.available)
    func purge(database: TestDatabase) async throws {
        let time = TestClock(Date())
        try await withHale(on: database, clock: time.clock, settings: ["webhooks.retention": "1d"]) { app in
            let webhooks = app.hale.webhooks
            let (endpoint, _) = try await webhooks.add(url: "https://hooks.example.com/a", eventTypes: ["*"])
            for _ in 0..<(Webhooks.purgeBatch + 1) { _ = try await webhooks.test(endpoint.id) }
            try await app.hale.database.sql.raw("UPDATE webhook_deliveries SET status = 'delivered'").run()
            _ = try await webhooks.test(endpoint.id)
            #expect(try await webhooks.purge() == 0)
            time.advance(.seconds(86_401))
            #expect(try await webhooks.purge() == Webhooks.purgeBatch + 1)
            let left = try await webhooks.deliveries(limit: 500)
            #expect(left.map(\.status) == ["pending"])
        }
    }
}
