import Foundation
import Testing

@testable import HaleServer

/// Seed 001's statistics against an independent computation with Foundation's calendars.
@Suite("Health: statistics by day, ISO week and month")
struct HealthStatisticsTests {
    /// Deterministic pseudo-random daily totals, some days missing.
    static func daily(from start: LocalDate, through end: LocalDate) -> [LocalDate: HealthTotals] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: UInt64) -> Int64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int64((state >> 33) % bound)
        }
        var daily: [LocalDate: HealthTotals] = [:]
        var day = start
        while day <= end {
            if next(5) != 0 {
                daily[day] = HealthTotals(
                    steps: next(30_000), duration: next(20_000), caloriesHundredths: next(500_000),
                    distanceHundredths: next(2_000_000))
            }
            day = day.adding(days: 1)
        }
        return daily
    }

    /// The label of a day computed with Foundation, not with `LocalDate`.
    static func foundationLabel(_ day: LocalDate, _ period: HealthStatistics.Period) -> String {
        var calendar = Calendar(identifier: period == .week ? .iso8601 : .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let instant = Date(timeIntervalSince1970: TimeInterval(day.dayNumber) * 86_400)
        let parts = calendar.dateComponents([.year, .month, .day, .yearForWeekOfYear, .weekOfYear], from: instant)
        switch period {
        case .day: return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        case .week: return String(format: "%04d-W%02d", parts.yearForWeekOfYear!, parts.weekOfYear!)
        case .month: return String(format: "%04d-%02d", parts.year!, parts.month!)
        }
    }

    @Test(
        "groups and sums match an independent computation, across year ends",
        arguments: HealthStatistics.Period.allCases)
    func matchesIndependentComputation(period: HealthStatistics.Period) throws {
        let start = try #require(LocalDate("2024-12-18"))
        let end = try #require(LocalDate("2027-01-06"))
        let daily = Self.daily(from: start, through: end)
        let (items, summary) = HealthStatistics.aggregate(daily, from: start, through: end, by: period)
        var expected: [(String, HealthTotals)] = []
        var day = start
        while day <= end {
            let label = Self.foundationLabel(day, period)
            let totals = daily[day] ?? .zero
            if expected.last?.0 == label {
                expected[expected.count - 1].1 = expected[expected.count - 1].1 + totals
            } else {
                expected.append((label, totals))
            }
            day = day.adding(days: 1)
        }
        #expect(items.map(\.label) == expected.map(\.0))
        #expect(items.map(\.totals) == expected.map(\.1))
        #expect(summary == daily.values.reduce(.zero, +))
    }

    @Test("the document's example range gives weeks 27 to 30, the first and last counting only the range's days")
    func documentExample() throws {
        let start = try #require(LocalDate("2025-07-01"))
        let end = try #require(LocalDate("2025-07-24"))
        let one = HealthTotals(steps: 1, duration: 1, caloriesHundredths: 1, distanceHundredths: 1)
        let daily = Dictionary(uniqueKeysWithValues: (0..<40).map { (start.adding(days: $0 - 5), one) })
        let (items, summary) = HealthStatistics.aggregate(daily, from: start, through: end, by: .week)
        #expect(items.map(\.label) == ["2025-W27", "2025-W28", "2025-W29", "2025-W30"])
        #expect(items.map(\.totals.steps) == [6, 7, 7, 4])
        #expect(summary.steps == 24)
    }

    @Test("empty periods are present with zeros")
    func emptyPeriods() throws {
        let start = try #require(LocalDate("2025-01-01"))
        let end = try #require(LocalDate("2025-04-30"))
        let (items, summary) = HealthStatistics.aggregate([:], from: start, through: end, by: .month)
        #expect(items.map(\.label) == ["2025-01", "2025-02", "2025-03", "2025-04"])
        #expect(items.allSatisfy { $0.totals == .zero })
        #expect(summary == .zero)
    }

    @Test("hundredths are exact: the summary is the sum of its items")
    func exactSums() {
        #expect(HealthTotals.hundredths(350.5) == 35_050)
        #expect(HealthTotals.hundredths(0.1) + HealthTotals.hundredths(0.2) == HealthTotals.hundredths(0.3))
        #expect(HealthTotals.hundredths(5200.755) == 520_076)
    }
}
