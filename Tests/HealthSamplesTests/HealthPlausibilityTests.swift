import Foundation
import Testing

@testable import HealthSamples

@Suite("Health samples: the plausibility table")
struct HealthPlausibilityTests {
    static let now = Date(timeIntervalSince1970: 1_761_739_200)  // 2025-10-29T12:00:00Z
    static let table = HealthPlausibility.standard

    static func sample(
        _ type: HealthSampleType, _ value: Double, start: TimeInterval = -3_600, lasting duration: TimeInterval = 60
    ) throws -> HealthSample {
        let start = now.addingTimeInterval(start)
        return try HealthSample(
            quantity: try HealthQuantity(type: type, canonicalValue: value), start: start,
            end: start.addingTimeInterval(duration), utcOffsetSeconds: 0)
    }

    @Test("a day's maximum in one sample is accepted; one more is VALUE_IMPLAUSIBLE, naming the limit")
    func valueAtTheLimit() throws {
        try Self.table.check(try Self.sample(.steps, 100_000), at: Self.now)
        #expect(throws: HealthSampleError.valueImplausible(limit: "100000 steps a day")) {
            try Self.table.check(try Self.sample(.steps, 100_001), at: Self.now)
        }
        #expect(throws: HealthSampleError.valueImplausible(limit: "250000 m a day")) {
            try Self.table.check(try Self.sample(.distance, 1e19), at: Self.now)
        }
        #expect(throws: HealthSampleError.valueImplausible(limit: "15000 kcal a day")) {
            try Self.table.check(try Self.sample(.calories, 1e308), at: Self.now)
        }
    }

    @Test("a sample may hold a day's maximum for each day, or part of one, its length takes up")
    func valueScalesWithLength() throws {
        let twoDays = 2 * 86_400.0
        try Self.table.check(
            try Self.sample(.workouts, 172_800, start: -3 * 86_400, lasting: twoDays), at: Self.now)
        #expect(throws: HealthSampleError.valueImplausible(limit: "86400 s a day")) {
            try Self.table.check(
                try Self.sample(.workouts, 172_801, start: -3 * 86_400, lasting: twoDays), at: Self.now)
        }
        #expect(Self.table.maximumValue(of: .workouts, lasting: 86_401) == 172_800)
        #expect(Self.table.maximumValue(of: .steps, lasting: 0) == 100_000)
        #expect(Self.table.maximumValue(of: .oxygenSaturation, lasting: 86_400) == 100)
    }

    @Test("DURATION_TOO_LONG: a day for most types, two days for workouts")
    func durationPerType() throws {
        try Self.table.check(try Self.sample(.steps, 1, start: -2 * 86_400, lasting: 86_400), at: Self.now)
        #expect(throws: HealthSampleError.durationTooLong(limit: "1 day")) {
            try Self.table.check(try Self.sample(.steps, 1, start: -2 * 86_400, lasting: 86_401), at: Self.now)
        }
        try Self.table.check(try Self.sample(.workouts, 1, start: -3 * 86_400, lasting: 2 * 86_400), at: Self.now)
        #expect(throws: HealthSampleError.durationTooLong(limit: "2 days")) {
            try Self.table.check(
                try Self.sample(.workouts, 1, start: -3 * 86_400, lasting: 2 * 86_400 + 1), at: Self.now)
        }
    }

    @Test("SAMPLE_TOO_OLD: a sample may start 366 days before now, not a second earlier")
    func oldest() throws {
        try Self.table.check(try Self.sample(.steps, 1, start: -366 * 86_400), at: Self.now)
        #expect(throws: HealthSampleError.tooOld(limit: "366 days")) {
            try Self.table.check(try Self.sample(.steps, 1, start: -366 * 86_400 - 1), at: Self.now)
        }
    }

    @Test("SAMPLE_IN_FUTURE: a sample may start a day after now, not a second later")
    func newest() throws {
        try Self.table.check(try Self.sample(.steps, 1, start: 86_400), at: Self.now)
        #expect(throws: HealthSampleError.inFuture(limit: "1 day")) {
            try Self.table.check(try Self.sample(.steps, 1, start: 86_401), at: Self.now)
        }
    }

    @Test("days of totals: from 366 days back to tomorrow")
    func dayWindow() throws {
        let today = try #require(LocalDate("2025-10-29"))
        #expect(Self.table.allows(day: today, today: today))
        #expect(Self.table.allows(day: today.adding(days: 1), today: today))
        #expect(!Self.table.allows(day: today.adding(days: 2), today: today))
        #expect(Self.table.allows(day: today.adding(days: -366), today: today))
        #expect(!Self.table.allows(day: today.adding(days: -367), today: today))
        #expect(!Self.table.allows(day: LocalDate(year: 1, month: 1, day: 1)!, today: today))
    }

    @Test("a configured table replaces the standard limits of the types it names")
    func configured() throws {
        var table = Self.table
        table.limits[.steps] = .init(maximumPerDay: 50_000, longestSample: 3_600)
        #expect(throws: HealthSampleError.valueImplausible(limit: "50000 steps a day")) {
            try table.check(try Self.sample(.steps, 50_001), at: Self.now)
        }
        #expect(throws: HealthSampleError.durationTooLong(limit: "1 hour")) {
            try table.check(try Self.sample(.steps, 1, lasting: 3_601), at: Self.now)
        }
        try table.check(try Self.sample(.distance, 250_000, start: -2 * 86_400, lasting: 86_400), at: Self.now)
    }

    @Test(
        "limits in words",
        arguments: [
            (86_400.0, "1 day"), (366 * 86_400, "366 days"), (7_200, "2 hours"), (90, "90 seconds"), (60, "1 minute"),
            (1.5, "1.5 seconds"),
        ] as [(TimeInterval, String)])
    func describe(seconds: TimeInterval, words: String) {
        #expect(HealthPlausibility.describe(seconds: seconds) == words)
    }

    @Test("the messages name the limit, never the value")
    func messages() {
        #expect(HealthSampleError.valueImplausible(limit: "100000 steps a day").code == "VALUE_IMPLAUSIBLE")
        #expect(
            HealthSampleError.valueImplausible(limit: "100000 steps a day").message
                == "The value is implausibly high: at most 100000 steps a day.")
        #expect(HealthSampleError.durationTooLong(limit: "1 day").code == "DURATION_TOO_LONG")
        #expect(HealthSampleError.tooOld(limit: "366 days").code == "SAMPLE_TOO_OLD")
        #expect(HealthSampleError.inFuture(limit: "1 day").code == "SAMPLE_IN_FUTURE")
        #expect(HealthSampleError.durationTooLong(limit: "1 day") != HealthSampleError.durationTooLong(limit: "2 days"))
    }
}
