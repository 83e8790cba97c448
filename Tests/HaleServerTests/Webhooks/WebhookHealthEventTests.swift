import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

@Suite("Webhooks: challenge completion and health events")
struct WebhookHealthEventTests {
    typealias HTTP = FitnessChallengeHTTP
    typealias Sync = HealthSampleSyncTests

    @Test(
        "challenge.completed once, when progress first reaches the goal, whatever progress does after",
        arguments: TestDatabase.available)
    func challengeCompleted(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HTTP.start }) { app in
            _ = try await app.hale.webhooks.add(url: "https://hooks.example.com/a", eventTypes: ["challenge.completed"])
            let (account, token) = try await HTTP.account(app)
            let id = try await HTTP.created(app, token, HTTP.body(goal: 5_000))["id"] as? String ?? ""
            _ = try await Sync.sync(app, token, Sync.batch([Sync.sample("walk", 4_000)]))
            #expect(try await WebhookOutboxTests.events(app).isEmpty)
            let run = Sync.sample("run", 1_500, start: "2025-10-29T09:00:00Z", end: "2025-10-29T10:00:00Z")
            _ = try await Sync.sync(app, token, Sync.batch([run]))
            let more = Sync.sample("more", 500, start: "2025-10-30T09:00:00Z", end: "2025-10-30T10:00:00Z")
            _ = try await Sync.sync(app, token, Sync.batch([more], deletions: ["run"]))
            _ = try await Sync.sync(app, token, Sync.batch([run]))
            let events = try await WebhookOutboxTests.events(app)
            #expect(events.map(\.type) == ["challenge.completed"])
            #expect(events.first?.account == account.rawValue)
            #expect(events.first?.payload.contains(id.lowercased()) == true)
            #expect(events.first?.payload.contains("5500") == false)
        }
    }

    @Test("seed 000's daily sync reports health.synced with its day, never its totals")
    func dailySync() async throws {
        try await withHale(clock: HaleClock { HTTP.start }) { app in
            _ = try await app.hale.webhooks.add(url: "https://hooks.example.com/a", eventTypes: ["health.synced"])
            let (account, token) = try await makeAccount(app)
            _ = try await app.hale.healthConsents.grant(
                platform: .apple, permissions: [.steps, .distance], to: account.id)
            let response = try await app.testing().sendRequest(
                .POST, "/api/mobile/health/sync", headers: .json(bearer: token),
                body: .json(#"{"platform":"apple","data":{"steps":8765,"distance":4321,"date":"2025-11-04"}}"#))
            #expect(response.status == .ok, "\(response.body.string)")
            let payload = try #require(try await WebhookOutboxTests.events(app).first?.payload)
            #expect(payload.contains("2025-11-04"))
            #expect(!payload.contains("8765") && !payload.contains("4321"))
        }
    }
}
