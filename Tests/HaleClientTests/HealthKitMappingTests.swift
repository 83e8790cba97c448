import Foundation
import Testing

@testable import HaleClient

@Suite("HealthKit mapping: what the Apple adapter reads, turned into what Hale takes")
struct HealthKitMappingTests {
    static let paris = TimeZone(identifier: "Europe/Paris")!
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    static var parisCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = paris
        return calendar
    }

    static func date(_ text: String) throws -> Date {
        try Date(text, strategy: .iso8601)
    }

    @Test("the time zone metadata names a zone; anything else falls back to the device's")
    func timeZoneMetadata() {
        #expect(HealthKitQuantity.timeZone(metadata: "Europe/Paris", fallback: Self.tokyo) == Self.paris)
        #expect(HealthKitQuantity.timeZone(metadata: nil, fallback: Self.tokyo) == Self.tokyo)
        #expect(HealthKitQuantity.timeZone(metadata: "", fallback: Self.tokyo) == Self.tokyo)
        #expect(HealthKitQuantity.timeZone(metadata: "Not/AZone", fallback: Self.tokyo) == Self.tokyo)
    }

    @Test("the device type is read from the HKDevice model")
    func deviceType() {
        #expect(HealthKitQuantity.deviceType(model: "Watch") == "watch")
        #expect(HealthKitQuantity.deviceType(model: "iPhone") == "phone")
        #expect(HealthKitQuantity.deviceType(model: "Oura Ring") == "other")
        #expect(HealthKitQuantity.deviceType(model: nil) == nil)
    }

    @Test("a sample takes its day from its time zone metadata, its scale from the quantity")
    func sample() throws {
        let start = try Self.date("2026-01-15T23:30:00Z")
        let sample = HealthKitQuantity.oxygenSaturation.sample(
            uuid: "A1", value: 0.97, start: start, end: start, timeZoneMetadata: "Europe/Paris",
            deviceTimeZone: Self.tokyo, sourceBundle: "com.apple.health", deviceModel: "Watch",
            userEnteredMetadata: nil)
        #expect(sample.id == "A1")
        #expect(sample.type == "HKQuantityTypeIdentifierOxygenSaturation")
        #expect(
            sample.value == 0.97 && sample.unit == "%",
            "sent as HealthKit reads it; Hale knows healthkit percentages are fractions")
        #expect(sample.unit == "%")
        #expect(sample.timeZoneOffset == "+01:00")
        #expect(sample.deviceType == "watch")
        #expect(sample.sourceBundle == "com.apple.health")
        #expect(!sample.userEntered)
    }

    @Test("daily sums become totals: steps rounded, exercise minutes in seconds")
    func totals() {
        let totals = DailyHealthTotals(healthKitSums: [
            .stepCount: 1234.6, .appleExerciseTime: 30, .activeEnergyBurned: 250.5, .distanceWalkingRunning: 4200,
        ])
        #expect(totals == DailyHealthTotals(steps: 1235, duration: 1800, calories: 250.5, distance: 4200))
        #expect(
            DailyHealthTotals(healthKitSums: [:]) == DailyHealthTotals(steps: 0, duration: 0, calories: 0, distance: 0))
    }

    @Test("the query runs from local midnight of the first day to local midnight after the last")
    func interval() throws {
        let interval = DailyHealthTotals.healthKitInterval(
            from: try Self.date("2026-03-28T10:00:00Z"), to: try Self.date("2026-03-30T08:00:00Z"),
            calendar: Self.parisCalendar)
        #expect(interval.start == (try Self.date("2026-03-27T23:00:00Z")))
        #expect(interval.end == (try Self.date("2026-03-30T22:00:00Z")))
    }

    @Test("every day of the interval is reported in order, across a daylight saving change, empty days as zero")
    func days() throws {
        let calendar = Self.parisCalendar
        let interval = DailyHealthTotals.healthKitInterval(
            from: try Self.date("2026-03-28T10:00:00Z"), to: try Self.date("2026-03-30T08:00:00Z"), calendar: calendar)
        let sunday = try Self.date("2026-03-28T23:00:00Z")
        let monday = try Self.date("2026-03-29T22:00:00Z")
        let days = DailyHealthTotals.days(
            in: interval, calendar: calendar,
            healthKitSums: [.stepCount: [sunday: 500, monday: 800], .appleExerciseTime: [monday: 2]])
        #expect(days.map(\.day) == [interval.start, sunday, monday])
        #expect(days.map(\.totals.steps) == [0, 500, 800])
        #expect(days.map(\.totals.duration) == [0, 0, 120])
    }
}
