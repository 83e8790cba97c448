import Foundation
import HaleServer
import HaleTesting
import Testing

@testable import hale

@Suite("hale bench health-stats")
struct HealthStatsBenchmarkTests {
    @Test func parses() throws {
        #expect(try HaleCommand.parseAsRoot(["bench", "health-stats", "--requests", "5"]) is BenchCommand.HealthStats)
    }

    @Test("the seed is five years of four sources, and the statistics over it add up")
    func seed() async throws {
        try await withHale { app in
            let seeded = try await HealthStatsBenchmark.seed(app.hale)
            let account = try await app.hale.personalAccessTokens.verify(seeded.token).accountId
            let days = seeded.end.dayNumber - seeded.start.dayNumber + 1
            #expect(days == 365 * 5 + 2)
            let statistics = try await app.hale.health.statistics(
                of: account, startDate: seeded.start.description, endDate: seeded.end.description, period: "month",
                in: TimeZone(identifier: "UTC")!)
            #expect((61...62).contains(statistics.items.count))
            #expect(statistics.summary.steps == statistics.items.map(\.totals.steps).reduce(0, +))
            #expect(statistics.summary.steps > Int64(days * 4 * 2_000))
        }
    }
}
