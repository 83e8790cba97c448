import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

@Suite("Webhooks: the outbox, written with the change")
struct WebhookOutboxTests {
    static func events(_ app: Application) async throws -> [(type: String, account: UUID?, payload: String)] {
        try await app.hale.database.sql.raw("SELECT type, account_id, payload FROM webhook_events ORDER BY sequence")
            .all().map {
                (
                    try $0.decode(column: "type", as: String.self), try $0.decode(column: "account_id", as: UUID?.self),
                    try $0.decode(column: "payload", as: String.self)
                )
            }
    }

    @Test(
        "with no endpoint nothing is written; an endpoint gets only the types it takes",
        arguments: TestDatabase.available)
    func subscriptions(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            _ = try await makeAccount(app, email: "before@example.com")
            #expect(try await Self.events(app).isEmpty)
            _ = try await app.hale.webhooks.add(url: "https://hooks.example.com/a", eventTypes: ["account.created"])
            let (account, _) = try await makeAccount(app, email: "after@example.com")
            _ = try await freshSignIn(app, account.id)
            let written = try await Self.events(app)
            #expect(written.map(\.type) == ["account.created"])
            #expect(written.first?.account == account.id.rawValue)
            let deliveries = try await app.hale.webhooks.deliveries()
            #expect(deliveries.count == 1 && deliveries.first?.status == "pending")
        }
    }

    @Test("an event of a change that rolls back is not written", arguments: TestDatabase.available)
    func rollback(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            _ = try await app.hale.webhooks.add(url: "https://hooks.example.com/a", eventTypes: ["*"])
            struct Abandoned: Error {}
            let account = Account(
                id: .random(), email: "gone@example.com", role: "user", createdAt: Date(), updatedAt: Date())
            await #expect(throws: Abandoned.self) {
                try await app.hale.database.writeTransaction { database in
                    try await SQLAccountRepository.insert(account, in: database)
                    throw Abandoned()
                }
            }
            #expect(try await Self.events(app).isEmpty)
            #expect(try await app.hale.accounts.find(account.id) == nil)
        }
    }

    @Test("the audit trail's events report: sessions, consent, health, deletion, with no secret and no value")
    func reported() async throws {
        try await withHale { app in
            _ = try await app.hale.webhooks.add(url: "https://hooks.example.com/a", eventTypes: ["*"])
            let (account, token) = try await makeAccount(app)
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "passkey", rememberMe: false)
            _ = try await app.hale.healthConsents.grant(platform: .apple, permissions: [.steps], to: account.id)
            let now = ISO8601.string(Date().addingTimeInterval(-7_200))
            let end = ISO8601.string(Date().addingTimeInterval(-3_600))
            let body =
                #"{"provider":"healthkit","samples":[{"id":"s1","type":"steps","value":4321,"unit":"count","startDate":"\#(now)","endDate":"\#(end)"}]}"#
            let synced = try await app.testing().sendRequest(
                .POST, "/api/v1/health/sync", headers: .json(bearer: token), body: .json(body))
            #expect(synced.status == .ok, "\(synced.body.string)")
            #expect(try await app.hale.sessions.revoke(pair.sessionId, of: account.id))
            let written = try await Self.events(app)
            #expect(
                written.map(\.type) == [
                    "account.created", "session.created", "consent.granted", "health.synced", "session.revoked",
                ])
            let sync = try #require(written.first { $0.type == "health.synced" }).payload
            #expect(sync.contains(#""inserted":1"#))
            #expect(sync.contains(#""days":["#))
            #expect(!sync.contains("4321"))
            for event in written {
                #expect(!event.payload.contains(token.split(separator: "|").last.map(String.init) ?? "?"))
                #expect(!event.payload.contains(pair.refreshToken))
                #expect(event.payload.contains(account.id.description))
            }
            // Erasure takes the account's events with it; the backend hears account.deleted, written after.
            #expect(try await app.hale.accounts.delete(account.id))
            #expect(try await Self.events(app).map(\.type) == ["account.deleted"])
        }
    }
}
