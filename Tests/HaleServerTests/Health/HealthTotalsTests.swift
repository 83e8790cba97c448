import Foundation
import Testing

@testable import HaleServer

/// Totals are clamped where they are made, so no conversion or sum of them can trap.
@Suite("Health totals: conversions and sums that cannot trap")
struct HealthTotalsTests {
    static let largest = HealthTotals.largestMeasure

    @Test(
        "a value as whole units or hundredths: exact within range, clamped beyond it, 0 for NaN",
        arguments: [
            (8_500.0, 8_500, 850_000), (350.555, 351, 35_056), (-2.5, -3, -250), (1e19, largest, largest),
            (-1e19, -largest, -largest), (Double.infinity, largest, largest), (-Double.infinity, -largest, -largest),
            (Double.nan, 0, 0), (1e13, 10_000_000_000_000, largest), (Double.leastNonzeroMagnitude, 0, 0),
        ] as [(Double, Int64, Int64)])
    func conversions(value: Double, whole: Int64, hundredths: Int64) {
        #expect(HealthTotals.whole(value) == whole)
        #expect(HealthTotals.hundredths(value) == hundredths)
    }

    @Test("every measure is clamped when made, so adding the largest totals saturates instead of overflowing")
    func sums() {
        let huge = HealthTotals(steps: .max, duration: .min, caloriesHundredths: .max, distanceHundredths: 1)
        #expect(huge.steps == Self.largest)
        #expect(huge.duration == -Self.largest)
        let sum = (0..<10_000).reduce(HealthTotals.zero) { total, _ in total + huge }
        #expect(sum.steps == Self.largest)
        #expect(sum.duration == -Self.largest)
        #expect(sum.distanceHundredths == 10_000)
        #expect(HealthTotals.larger(huge, .zero).steps == Self.largest)
    }

    @Test("a day's packed summary with 18-digit numbers, which only storage could hold, is clamped as read")
    func packedSummaries() throws {
        let totals = try PackedDailyTotals.parse("20000:999999999999999999:-999999999999999999:1:2")
        let day = try #require(totals[LocalDate(dayNumber: 20_000)])
        #expect(day.steps == Self.largest)
        #expect(day.duration == -Self.largest)
        #expect(throws: PackedDailyTotals.Malformed.self) { try PackedDailyTotals.parse("1:9999999999999999999:0:0:0") }
    }
}
