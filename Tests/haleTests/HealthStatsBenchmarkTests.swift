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
                of: account, startDate: seeded.start, endDate: seeded.end, period: .month,
                in: TimeZone(identifier: "UTC")!)
            #expect((61...62).contains(statistics.items.count))
            #expect(statistics.summary.steps == statistics.items.map(\.totals.steps).reduce(0, +))
            #expect(statistics.summary.steps > Int64(days * 4 * 2_000))
        }
    }

    @Test("the server's request times are read from its histogram, for the one route and successes only")
    func serverRequestTimes() {
        let text = """
            # TYPE http_request_duration_seconds histogram
            http_request_duration_seconds_bucket{method="GET",path="/health/statistics",status="200",le="0.005"} 30
            http_request_duration_seconds_bucket{method="GET",path="/health/statistics",status="200",le="0.01"} 39
            http_request_duration_seconds_bucket{method="GET",path="/health/statistics",status="400",le="0.005"} 7
            http_request_duration_seconds_bucket{method="GET",path="/health/today",status="200",le="0.005"} 9
            http_request_duration_seconds_sum{method="GET",path="/health/statistics",status="200"} 0.16
            http_request_duration_seconds_count{method="GET",path="/health/statistics",status="200"} 40
            """
        let earlier = ServerRequestTimes(count: 20, seconds: 0.06, atMostFiveMilliseconds: 10)
        let times = ServerRequestTimes(prometheus: text, path: "/health/statistics")
        #expect(times == ServerRequestTimes(count: 40, seconds: 0.16, atMostFiveMilliseconds: 30))
        let measured = times.since(earlier)
        #expect(abs(measured.meanMilliseconds - 5) < 1e-9)
        #expect(measured.shareAtMostFiveMilliseconds == 1)
        #expect(ServerRequestTimes(prometheus: "", path: "/health/statistics").count == 0)
    }
}
