import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Retention (seed 000's 30 days) and the sweep of data whose consent is gone, with a clock the test moves.
@Suite("Health sync: retention and consent sweeps")
struct HealthRetentionTests {
    static let start = Date(timeIntervalSince1970: 1_761_739_200)  // 2025-10-29T12:00:00Z

    static func sync(_ app: Application, _ token: String, _ samples: [String], batchId: String? = nil) async throws {
        let extra = batchId.map { #","batchId":"\#($0)""# } ?? ""
        let response = try await HealthSyncHTTPTests.post(
            app, "/api/v1/health/sync", token, HealthSampleSyncTests.batch(samples, extra: extra))
        #expect(response.status == .ok, "\(response.body.string)")
    }

    @Test("samples, rollups and logs older than the retention go; newer ones stay", arguments: TestDatabase.available)
    func expiry(database: TestDatabase) async throws {
        let clock = TestClock(Self.start)
        try await withHale(on: database, clock: clock.clock) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps"])
            try await Self.sync(
                app, token,
                [
                    HealthSampleSyncTests.sample(
                        "old", 100, start: "2025-10-01T09:00:00Z", end: "2025-10-01T10:00:00Z"),
                    HealthSampleSyncTests.sample(
                        "new", 200, start: "2025-10-28T09:00:00Z", end: "2025-10-28T10:00:00Z"),
                ])
            clock.advance(.seconds(28 * 86_400))  // 2025-11-26 12:00: the cutoff is 2025-10-27 12:00.
            let deleted = try await app.hale.healthRetention.deleteExpired()
            #expect(deleted == 1)
            #expect(try await app.hale.healthRetention.deleteExpired() == 0)
            let totals = try await HealthSyncHTTPTests.totals(app, account.id, .steps, "2025-09-01", "2025-11-30")
            #expect(totals == ["2025-10-28": 200])
            #expect(try await app.hale.healthSync.logs(of: account.id, limit: nil).count == 1)
            clock.advance(.seconds(3 * 86_400))  // The log, written 2025-10-29 12:00, is now past it too.
            try await app.hale.healthRetention.deleteExpired()
            #expect(try await app.hale.healthSync.logs(of: account.id, limit: nil).isEmpty)
        }
    }

    @Test("seed 001's attested day totals older than the retention go too", arguments: TestDatabase.available)
    func attestedExpiry(database: TestDatabase) async throws {
        let clock = TestClock(Self.start)
        try await withHale(on: database, clock: clock.clock) { app in
            let (account, _) = try await makeAccount(app)
            let days = ["2025-10-01", "2025-10-28"].map { LocalDate($0)! }
            try await SQLHealthRepository(database: app.hale.database).saveAll(
                days.map { day in
                    HealthDailyTotal(
                        id: UUID(), accountId: account.id, day: day, source: "ios_health", platform: "ios",
                        totals: HealthTotals(steps: 1_000, duration: 60, caloriesHundredths: 0, distanceHundredths: 0),
                        createdAt: Self.start, updatedAt: Self.start)
                })
            clock.advance(.seconds(28 * 86_400))  // 2025-11-26 12:00: days before 2025-10-26 are past it.
            try await app.hale.healthRetention.deleteExpired()
            let kept = try await app.hale.health.statistics(
                of: account.id, startDate: LocalDate("2025-09-30")!, endDate: LocalDate("2025-10-30")!,
                period: .day, in: .gmt)
            #expect(kept.items.filter { $0.totals.steps > 0 }.map(\.label) == ["2025-10-28"])
            let stored = try await SQLHealthRepository(database: app.hale.database).allDailyTotals(of: account.id)
            #expect(stored.map(\.day) == [days[1]])
        }
    }

    @Test("a retention of 0 keeps everything")
    func keepForever() async throws {
        let clock = TestClock(Self.start)
        try await withHale(clock: clock.clock, settings: ["health.retentionDays": "0"]) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps"])
            try await Self.sync(app, token, [HealthSampleSyncTests.sample("a", 100)])
            clock.advance(.seconds(3_650 * 86_400))
            #expect(try await app.hale.healthRetention.deleteExpired() == 0)
            #expect(
                try await HealthSyncHTTPTests.totals(app, account.id, .steps, "2025-10-28", "2025-10-28").count == 1)
        }
    }

    @Test("several instances deleting at once each delete different rows", arguments: TestDatabase.available)
    func concurrentInstances(database: TestDatabase) async throws {
        let clock = TestClock(Self.start)
        try await withHale(on: database, clock: clock.clock) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps"])
            let samples = (0..<2_500).map { index in
                HealthSampleSyncTests.sample(
                    "s\(index)", 1, start: "2025-10-01T09:00:00Z", end: "2025-10-01T09:00:0\(index % 10)Z")
            }
            try await Self.sync(app, token, samples)
            clock.advance(.seconds(60 * 86_400))
            let retention = app.hale.healthRetention
            async let first = retention.deleteExpired()
            async let second = retention.deleteExpired()
            let deleted = try await first + second
            #expect(deleted == 2_500)
        }
    }

    @Test(
        "data whose consent was revoked behind the service's back is swept, with its rollups",
        arguments: TestDatabase.available)
    func sweep(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { Self.start }) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps", "distance"])
            try await Self.sync(
                app, token,
                [
                    HealthSampleSyncTests.sample("s", 100),
                    HealthSampleSyncTests.sample("d", 5, type: "distance", unit: "m"),
                ])
            // As if a sync committed just after a revocation had deleted what was there.
            _ = try await SQLHealthConsentRepository(database: app.hale.database).revoke(
                [.steps], from: .apple, of: account.id, at: Self.start)
            #expect(try await app.hale.healthRetention.deleteUnconsented() == 1)
            #expect(try await HealthSyncHTTPTests.totals(app, account.id, .steps, "2025-10-28", "2025-10-28").isEmpty)
            #expect(
                try await HealthSyncHTTPTests.totals(app, account.id, .distance, "2025-10-28", "2025-10-28").count == 1)
            #expect(try await app.hale.healthRetention.deleteUnconsented() == 0)
        }
    }
}
