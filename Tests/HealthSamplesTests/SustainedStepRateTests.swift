import Foundation
import Testing

@testable import HealthSamples

@Suite("Health samples: step rates no person keeps up")
struct SustainedStepRateTests {
    typealias Rollup = DailyRollupTests
    static let day = LocalDate(dayNumber: 20_254)  // 2025-06-15, `Rollup.day`

    @Test("an hour of a fast run, and a marathon's four hours at 180 a minute, are plausible")
    func plausible() throws {
        let run = try Rollup.sample(12_000, 9, 10, Rollup.watch)
        let marathon = try (0..<4).map { hour in
            try Rollup.sample(10_800, 6 + Double(hour), 7 + Double(hour), Rollup.watch)
        }
        #expect(SustainedStepRate.implausibleDays(of: [run]).isEmpty)
        #expect(SustainedStepRate.implausibleDays(of: marathon).isEmpty)
    }

    @Test("more than 15,000 steps in an hour, in one sample or several")
    func oneHour() throws {
        let one = try Rollup.sample(15_001, 9, 10, Rollup.phone)
        let pieces = try (0..<6).map { part in
            try Rollup.sample(2_600, 9 + Double(part) / 6, 9 + Double(part + 1) / 6, Rollup.phone)
        }
        #expect(SustainedStepRate.implausibleDays(of: [one]) == [Self.day: SustainedStepRate.limits[0]])
        #expect(SustainedStepRate.implausibleDays(of: pieces)[Self.day]?.hours == 1)
    }

    @Test("two hours over 26,000 and six over 72,000 name their limit; a window across midnight flags both days")
    func longerWindows() throws {
        let two = try [Rollup.sample(13_500, 9, 10, Rollup.phone), Rollup.sample(13_500, 10, 11, Rollup.phone)]
        #expect(SustainedStepRate.implausibleDays(of: two)[Self.day]?.reason == "more than 26000 steps in 2 hours")
        let six = try (0..<6).map { hour in
            try Rollup.sample(12_500, 21 + Double(hour), 22 + Double(hour), Rollup.phone)
        }
        let days = SustainedStepRate.implausibleDays(of: six)
        #expect(days[Self.day]?.hours == 6)
        #expect(days[Self.day.adding(days: 1)]?.hours == 6)
    }

    @Test("a sample's steps spread over its hours: 100,000 over a whole day is slow, over two hours is not")
    func spread() throws {
        #expect(SustainedStepRate.implausibleDays(of: [try Rollup.sample(100_000, 0, 24, Rollup.phone)]).isEmpty)
        #expect(!SustainedStepRate.implausibleDays(of: [try Rollup.sample(30_000, 8, 10, Rollup.phone)]).isEmpty)
    }

    @Test("half a step over a limit is the rounding of spread samples, not a fast walker")
    func roundingSlack() throws {
        #expect(SustainedStepRate.implausibleDays(of: [try Rollup.sample(15_000.5, 9, 10, Rollup.phone)]).isEmpty)
        #expect(!SustainedStepRate.implausibleDays(of: [try Rollup.sample(15_000.6, 9, 10, Rollup.phone)]).isEmpty)
    }

    @Test("a zero-length sample counts in the hour of its instant")
    func instant() throws {
        let sample = try Rollup.sample(15_001, 9.5, 9.5, Rollup.phone)
        #expect(SustainedStepRate.implausibleDays(of: [sample])[Self.day]?.hours == 1)
    }

    @Test("a verified priority counts only attested, device-recorded samples of its device classes")
    func verifiedPriority() throws {
        var attestedWatch = Rollup.watch
        attestedWatch.isAttested = true
        var attestedPhone = Rollup.phone
        attestedPhone.isAttested = true
        var attestedTyped = Rollup.typedIn
        attestedTyped.isAttested = true
        let samples = try [
            Rollup.sample(1_000, 9, 10, attestedWatch), Rollup.sample(700, 11, 12, attestedPhone),
            Rollup.sample(500, 13, 14, Rollup.watch), Rollup.sample(300, 15, 16, attestedTyped),
        ]
        #expect(Rollup.total(samples, SourcePriority(verifiedFrom: [.watch])) == 1_000)
        #expect(Rollup.total(samples, SourcePriority(verifiedFrom: [.watch, .phone])) == 1_700)
        #expect(Rollup.total(samples, SourcePriority(verifiedFrom: [.other])) == nil)
        #expect(Rollup.total(samples) == 2_500)
    }
}
