import Foundation
import HaleTesting
import Testing
import Vapor

@testable import HaleServer

/// The per-day summaries statistics read: each day's sources added up and kept as packed text with the summary.
@Suite("Health: per-day summaries in storage")
struct HealthDaySummaryStorageTests {
    static func total(_ account: AccountID, _ day: String, _ source: String, steps: Int64) -> HealthDailyTotal {
        HealthDailyTotal(
            id: UUID(), accountId: account, day: LocalDate(day)!, source: source, platform: "ios",
            totals: HealthTotals(
                steps: steps, duration: steps / 10, caloriesHundredths: steps * 3 + 1, distanceHundredths: steps * 70),
            createdAt: Date(), updatedAt: Date())
    }

    @Test(
        "a range reads each day's sum over its sources, and the migration's backfill writes the same text",
        arguments: TestDatabase.available)
    func packedSums(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, _) = try await makeAccount(app)
            let (other, _) = try await makeAccount(app, email: "other@example.com")
            try await app.hale.health.importDailyTotals([
                Self.total(account.id, "2025-07-01", "ios_health", steps: 1_000),
                Self.total(account.id, "2025-07-01", "manual", steps: 234),
                Self.total(account.id, "2025-07-03", "ios_health", steps: 5_000),
                Self.total(account.id, "2025-08-01", "ios_health", steps: 9_999),
                Self.total(other.id, "2025-07-01", "ios_health", steps: 7),
            ])
            let repository = SQLHealthRepository(database: app.hale.database)
            let read = {
                try await repository.dailyTotals(
                    of: account.id, from: LocalDate("2025-07-01")!, through: LocalDate("2025-07-31")!)
            }
            let expected: [LocalDate: HealthTotals] = [
                LocalDate("2025-07-01")!: HealthTotals(
                    steps: 1_234, duration: 123, caloriesHundredths: 3_704, distanceHundredths: 86_380),
                LocalDate("2025-07-03")!: HealthTotals(
                    steps: 5_000, duration: 500, caloriesHundredths: 15_001, distanceHundredths: 350_000),
            ]
            #expect(try await read() == expected)
            try await app.hale.database.sql.raw("UPDATE health_day_summaries SET packed = ''").run()
            try await M0019_PackHealthDaySummaries.backfill(on: app.hale.database.sql)
            #expect(try await read() == expected)
        }
    }
}
