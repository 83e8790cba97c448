import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Seed 001's statistics and today read the synced daily totals too, without adding the same day twice.
@Suite("Health: seed 001 statistics over attested and synced data")
struct StatisticsWithSyncedDataTests {
    @Test("each measure of a day is the larger of the attested and the synced total", arguments: TestDatabase.available)
    func combined(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HealthSyncHTTPTests.now }) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps", "calories"])
            try await app.hale.health.importDailyTotals([
                HealthHTTPTests.total(account.id, "2025-10-27", steps: 3_000, calories: 150.5),
                HealthHTTPTests.total(account.id, "2025-10-28", steps: 5_000, calories: 150.5),
            ])
            let samples = [
                HealthSampleSyncTests.sample("s28", 6_000),
                HealthSampleSyncTests.sample("c28", 100, type: "calories", unit: "kcal"),
                HealthSampleSyncTests.sample("s29", 700, start: "2025-10-29T08:00:00Z", end: "2025-10-29T09:00:00Z"),
            ]
            _ = try await HealthSampleSyncTests.sync(app, token, HealthSampleSyncTests.batch(samples))
            let response = try await HealthHTTPTests.get(
                app, "/health/statistics?startDate=2025-10-27&endDate=2025-10-29&period=day", bearer: token)
            #expect(response.status == .ok)
            let items = try response.json()["items"] as? [[String: Any]] ?? []
            #expect(items.map { $0["steps"] as? Int } == [3_000, 6_000, 700])
            #expect(items.map { $0["calories"] as? Double } == [150.5, 150.5, 0])
            #expect((try response.json()["summary"] as? [String: Any])?["steps"] as? Int == 9_700)

            let today = try await HealthHTTPTests.get(app, "/health/today", bearer: token)
            let body = try today.json()
            #expect(body["date"] as? String == "2025-10-29")
            #expect(body["steps"] as? Int == 700)
            #expect(body["lastUpdated"] as? String == "2025-10-29T12:00:00.000Z")
        }
    }
}
