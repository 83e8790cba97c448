import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// One sync's work is bounded whatever the account has stored: it reads back only the days it changes, and at most
/// `health.maxSamplesReadPerSync` stored samples, so it never holds the write lock for long.
@Suite("Health sync: the work of one batch is bounded")
struct HealthSyncWorkBoundTests {
    typealias Sync = HealthSampleSyncTests

    /// `count` five-second step samples from midnight UTC of `day`, with ids `prefix-0`, `prefix-1`, …
    static func samples(_ prefix: String, _ count: Int, on day: String) -> [String] {
        let midnight = ISO8601DateFormatter().date(from: "\(day)T00:00:00Z")!
        let format = ISO8601DateFormatter()
        return (0..<count).map { index in
            let start = midnight.addingTimeInterval(Double(index) * 5)
            return Sync.sample(
                "\(prefix)-\(index)", 1, start: format.string(from: start),
                end: format.string(from: start.addingTimeInterval(5)))
        }
    }

    @Test(
        "a batch whose days hold more stored samples than the budget is a 413 that changes nothing; far days are read apart",
        arguments: TestDatabase.available)
    func readBudget(database: TestDatabase) async throws {
        try await withHale(
            on: database, clock: HaleClock { Sync.now }, settings: ["health.maxSamplesReadPerSync": "10000"]
        ) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps"])
            let first = try await Sync.sync(app, token, Sync.batch(Self.samples("a", 9_000, on: "2025-10-24")))
            #expect(Sync.counts(first) == [9_000, 0, 0, 0, 0])

            let over = try await HealthSyncHTTPTests.post(
                app, "/api/v1/health/sync", token, Sync.batch(Self.samples("b", 1_001, on: "2025-10-24")))
            #expect(over.status == .payloadTooLarge)
            #expect(try over.coreError().error.code == "PAYLOAD_TOO_LARGE")
            #expect(
                try over.coreError().error.message
                    == "The days this batch changes hold more than 10000 stored samples; send their samples in"
                    + " batches that each change fewer days.")
            #expect(try await Self.totals(app, account.id) == ["2025-10-24": 9_000])

            // Only the days a batch changes are read: the 24th lies between these two and is not.
            let around = Self.samples("c", 1_000, on: "2025-10-21") + Self.samples("d", 1, on: "2025-10-27")
            #expect(Sync.counts(try await Sync.sync(app, token, Sync.batch(around))) == [1_001, 0, 0, 0, 0])
            // What each run of days reads adds up: 1,001 on the 21st and 9,001 on the 24th.
            let both = Self.samples("e", 1, on: "2025-10-21") + Self.samples("f", 1, on: "2025-10-24")
            let sum = try await HealthSyncHTTPTests.post(app, "/api/v1/health/sync", token, Sync.batch(both))
            #expect(sum.status == .payloadTooLarge)
            // Exactly the budget is allowed.
            let fits = try await Sync.sync(app, token, Sync.batch(Self.samples("g", 1_000, on: "2025-10-24")))
            #expect(Sync.counts(fits) == [1_000, 0, 0, 0, 0])
            #expect(
                try await Self.totals(app, account.id) == ["2025-10-21": 1_000, "2025-10-24": 10_000, "2025-10-27": 1])
        }
    }

    static func totals(_ app: Application, _ account: AccountID) async throws -> [String: Double] {
        try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-10-20", "2025-10-29")
    }

    @Test("days two or more apart are read apart; neighbours are read together, with 18 hours either side")
    func runs() throws {
        let days = Set(["2025-10-01", "2025-10-03", "2025-10-06", "2025-12-31"].map { LocalDate($0)! })
        let runs = HealthRollupWriter.runs(of: days)
        #expect(
            runs.map { $0.days.map(\.description) } == [["2025-10-01", "2025-10-03"], ["2025-10-06"], ["2025-12-31"]])
        let format = ISO8601DateFormatter()
        #expect(
            runs.map { format.string(from: $0.start) } == [
                "2025-09-30T06:00:00Z", "2025-10-05T06:00:00Z", "2025-12-30T06:00:00Z",
            ])
        #expect(
            runs.map { format.string(from: $0.end) } == [
                "2025-10-04T18:00:00Z", "2025-10-07T18:00:00Z", "2026-01-01T18:00:00Z",
            ])
    }
}
