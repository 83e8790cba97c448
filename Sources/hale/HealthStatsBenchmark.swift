import AsyncHTTPClient
import Foundation
import HaleServer
import NIOCore

/// Seed 001's statistics for one account with five years of daily totals from four sources: the latency of
/// `GET /health/statistics` over the whole range, by day, week and month, one request at a time: at the client, and
/// at the server from its own request-time histogram.
struct HealthStatsBenchmark {
    /// One period's latencies.
    struct Result: Codable {
        let period: String
        let requests: Int
        let p50Milliseconds: Double
        let p99Milliseconds: Double
        /// The server's mean time, from its `/metrics` histogram; `nil` when that cannot be read.
        let serverMeanMilliseconds: Double?
        /// The share of requests the server answered in at most 5 ms.
        let serverShareAtMostFiveMilliseconds: Double?
    }

    static let sources = ["ios_health", "android_health", "health_connect", "manual"]
    static let years = 5

    /// Creates the account and its data through the services, and returns a token for it and the range.
    static func seed(_ services: HaleServices) async throws -> (token: String, start: LocalDate, end: LocalDate) {
        let account = try await services.accounts.create(
            email: try AccountEmail("bench-stats-\(UUID().uuidString.lowercased())@example.com"), role: "user")
        let token = try await services.personalAccessTokens.create(for: account.id, name: "hale bench health-stats")
        let end = LocalDate(at: Date(), in: TimeZone(identifier: "UTC")!)
        let start = end.adding(days: -(365 * years + 1))
        var totals: [HealthDailyTotal] = []
        var day = start
        while day <= end {
            for (index, source) in sources.enumerated() {
                let seed = Int64(day.dayNumber * 7 + index * 13)
                totals.append(
                    HealthDailyTotal(
                        id: UUID(), accountId: account.id, day: day, source: source, platform: "ios",
                        totals: HealthTotals(
                            steps: 2_000 + seed % 9_000, duration: 600 + seed % 3_000,
                            caloriesHundredths: 10_000 + seed % 50_000, distanceHundredths: 100_000 + seed % 700_000),
                        createdAt: Date(), updatedAt: Date()))
            }
            day = day.adding(days: 1)
        }
        try await services.health.importDailyTotals(totals)
        return (token.token, start, end)
    }

    let server: URL
    let token: String
    let start: LocalDate
    let end: LocalDate
    let requests: Int

    func run(_ periods: [HealthStatistics.Period]) async throws -> [Result] {
        try await withBenchmarkClient { client in
            var results: [Result] = []
            for period in periods {
                results.append(try await measure(period, with: client))
            }
            return results
        }
    }

    private func measure(_ period: HealthStatistics.Period, with client: HTTPClient) async throws -> Result {
        let url =
            server.appendingPathComponent("health/statistics").absoluteString
            + "?startDate=\(start)&endDate=\(end)&period=\(period.rawValue)"
        let clock = ContinuousClock()
        var latencies: [Duration] = []
        var before: ServerRequestTimes?
        for index in 0..<(requests + 20) {
            if index == 20 {
                before = await ServerRequestTimes.read(from: server, path: "/health/statistics", with: client)
            }
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            let began = clock.now
            let response = try await client.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 16 << 20)
            guard response.status == .ok else {
                throw BenchmarkRequestFailed(path: url, status: response.status.code, body: String(buffer: body))
            }
            if index >= 20 { latencies.append(clock.now - began) }
        }
        latencies.sort()
        let after = await ServerRequestTimes.read(from: server, path: "/health/statistics", with: client)
        let atServer = before.flatMap { before in after.map { $0.since(before) } }.flatMap { $0.count > 0 ? $0 : nil }
        return Result(
            period: period.rawValue, requests: latencies.count, p50Milliseconds: Self.milliseconds(latencies, 0.5),
            p99Milliseconds: Self.milliseconds(latencies, 0.99), serverMeanMilliseconds: atServer?.meanMilliseconds,
            serverShareAtMostFiveMilliseconds: atServer?.shareAtMostFiveMilliseconds)
    }

    private static func milliseconds(_ sorted: [Duration], _ fraction: Double) -> Double {
        sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))].timeInterval * 1000
    }
}
