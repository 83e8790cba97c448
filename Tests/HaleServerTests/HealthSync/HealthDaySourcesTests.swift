import Foundation
import HaleTesting
import HealthSamples
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Which source counted for each day: the attested upload when its total is at least the synced one, else the
/// highest-ranked synced source, with each sample's own offset deciding its days.
@Suite("Health: the source that counted for each day")
struct HealthDaySourcesTests {
    @Test(arguments: TestDatabase.available)
    func eachDayNamesWhatCounted(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HealthSyncHTTPTests.now }) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps"])
            try await app.hale.health.importDailyTotals([
                HealthHTTPTests.total(account.id, "2025-10-26", steps: 9_000, calories: 0),
                HealthHTTPTests.total(account.id, "2025-10-27", steps: 100, calories: 0),
            ])
            let samples = [
                // 27 Oct: the phone's 800 beats the upload's 100; the watch outranks the phone.
                HealthSampleSyncTests.sample(
                    "p27", 800, start: "2025-10-27T09:00:00Z", end: "2025-10-27T10:00:00Z", model: "iPhone15,2"),
                HealthSampleSyncTests.sample(
                    "w27", 500, start: "2025-10-27T09:00:00Z", end: "2025-10-27T09:30:00Z", model: "Watch6,2"),
                // 28 Oct, by its own offset (-05:00), though 02:00 UTC on 29 Oct: entered by hand only.
                HealthSampleSyncTests.sample(
                    "h28", 300, start: "2025-10-29T02:00:00Z", end: "2025-10-29T02:30:00Z", userEntered: true,
                    offset: "-05:00"),
            ]
            _ = try await HealthSampleSyncTests.sync(app, token, HealthSampleSyncTests.batch(samples))
            let sources = try await app.hale.healthDaySources.sources(
                of: account.id, measure: .steps, from: try #require(LocalDate("2025-10-25")),
                through: try #require(LocalDate("2025-10-29")))
            #expect(sources.count == 3)
            #expect(sources[try #require(LocalDate("2025-10-26"))] == .attested)
            #expect(
                sources[try #require(LocalDate("2025-10-27"))]
                    == .synced(SampleSource(deviceModel: "Watch6,2", isUserEntered: false)))
            #expect(
                sources[try #require(LocalDate("2025-10-28"))]
                    == .synced(SampleSource(isUserEntered: true)))
            let calories = try await app.hale.healthDaySources.sources(
                of: account.id, measure: .calories, from: try #require(LocalDate("2025-10-25")),
                through: try #require(LocalDate("2025-10-29")))
            #expect(calories.isEmpty)
        }
    }

    @Test func aRangeIsOneToThirtyOneDaysInOrder() async throws {
        try await withHale { app in
            let (account, _) = try await makeAccount(app)
            for (start, end) in [("2025-10-01", "2025-11-01"), ("2025-10-02", "2025-10-01")] {
                let refusal = InvalidInput("startDate", .described("The date range must be 1 to 31 days, in order"))
                await #expect(throws: refusal) {
                    _ = try await app.hale.healthDaySources.sources(
                        of: account.id, measure: .steps, from: try #require(LocalDate(start)),
                        through: try #require(LocalDate(end)))
                }
            }
            let month = try await app.hale.healthDaySources.sources(
                of: account.id, measure: .steps, from: try #require(LocalDate("2025-10-01")),
                through: try #require(LocalDate("2025-10-31")))
            #expect(month.isEmpty)
        }
    }
}
