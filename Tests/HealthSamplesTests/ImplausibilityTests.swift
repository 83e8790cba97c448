import Foundation
import Testing

@testable import HealthSamples

/// One table finds what is implausible about a sample, a day's total and a challenge's goal, as a typed reason that
/// each surface words its own way.
@Suite("Health samples: implausibility as a typed reason")
struct ImplausibilityTests {
    static let now = HealthPlausibilityTests.now
    static let table = HealthPlausibility.standard

    @Test func aSampleWithinEveryLimitHasNone() throws {
        #expect(Self.table.implausibility(of: try HealthPlausibilityTests.sample(.steps, 100_000), at: Self.now) == nil)
    }

    @Test func aSampleNamesTheFirstLimitItBreaks() throws {
        let long = try HealthPlausibilityTests.sample(.steps, 1e9, lasting: 86_401)
        #expect(Self.table.implausibility(of: long, at: Self.now) == .lastsTooLong(longest: 86_400))
        let old = try HealthPlausibilityTests.sample(.steps, 10, start: -367 * 86_400)
        #expect(Self.table.implausibility(of: old, at: Self.now) == .startsTooEarly(oldest: 366 * 86_400))
        let ahead = try HealthPlausibilityTests.sample(.steps, 10, start: 86_401)
        #expect(Self.table.implausibility(of: ahead, at: Self.now) == .startsTooLate(newest: 86_400))
        let many = try HealthPlausibilityTests.sample(.steps, 100_001)
        #expect(Self.table.implausibility(of: many, at: Self.now) == .valueTooHigh(.steps, maximumPerDay: 100_000))
    }

    @Test func aDayTotalAtItsMaximumPassesAndAboveItIsTooHigh() {
        #expect(Self.table.implausibility(ofDayTotal: 250_000, of: .distance) == nil)
        #expect(
            Self.table.implausibility(ofDayTotal: 250_000.01, of: .distance)
                == .valueTooHigh(.distance, maximumPerDay: 250_000))
    }

    @Test func aGoalMayBeWhatItsDaysHoldAndNoMore() {
        #expect(Self.table.implausibility(ofGoal: 300_000, of: .steps, overDays: 3) == nil)
        #expect(
            Self.table.implausibility(ofGoal: 300_001, of: .steps, overDays: 3)
                == .goalTooHigh(.steps, largest: 300_000, maximumPerDay: 100_000))
    }

    @Test func aConfiguredLimitIsTheOneNamed() {
        var table = Self.table
        table.limits[.steps] = .init(maximumPerDay: 60_000, longestSample: 86_400)
        #expect(table.implausibility(ofDayTotal: 60_001, of: .steps) == .valueTooHigh(.steps, maximumPerDay: 60_000))
        #expect(HealthPlausibility.describe(maximumPerDay: 60_000, of: .steps) == "60000 steps a day")
    }
}
