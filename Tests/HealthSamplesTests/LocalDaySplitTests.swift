import Foundation
import Testing

@testable import HealthSamples

@Suite("Health samples: local days and splitting across midnight")
struct LocalDaySplitTests {
    static func sample(
        _ type: HealthSampleType, _ value: Double, from start: Date, seconds: Double, in zone: TimeZone
    ) throws -> HealthSample {
        try HealthSample(
            quantity: HealthQuantity(type: type, canonicalValue: value), start: start,
            end: start.addingTimeInterval(seconds), utcOffsetSeconds: zone.secondsFromGMT(for: start))
    }

    static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// The independent computation: Foundation's midnights in the zone, and the share of the sample in each day.
    static func expectedSplit(start: Date, end: Date, value: Double, calendar: Calendar) throws -> [LocalDate: Double] {
        var split: [LocalDate: Double] = [:]
        var dayStart = calendar.startOfDay(for: start)
        while dayStart < end {
            let next = try #require(calendar.date(byAdding: .day, value: 1, to: dayStart))
            let overlap = min(end, next).timeIntervalSince(max(start, dayStart))
            if overlap > 0 {
                let parts = calendar.dateComponents([.year, .month, .day], from: dayStart)
                let day = try #require(LocalDate(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0))
                split[day] = value * overlap / end.timeIntervalSince(start)
            }
            dayStart = next
        }
        return split
    }

    static func localMidnight(_ date: String, _ calendar: Calendar) throws -> Date {
        let day = try #require(LocalDate(date)).components
        return try #require(calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day)))
    }

    @Test(
        "samples around 2025's daylight-saving changes split as Foundation's calendar does",
        arguments: [
            ("America/New_York", "2025-03-09"), ("America/New_York", "2025-11-02"),
            ("Europe/Berlin", "2025-03-30"), ("Europe/Berlin", "2025-10-26"),
        ])
    func aroundDaylightSavingChanges(zone: String, changeDay: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let calendar = Self.calendar(timeZone)
        let midnight = try Self.localMidnight(changeDay, calendar)
        // Starts every 20 minutes from 8 hours before the change day to 8 hours after it, lasting 45 min to 7 h.
        var start = midnight.addingTimeInterval(-8 * 3600)
        let last = midnight.addingTimeInterval(32 * 3600)
        var checked = 0
        while start < last {
            for seconds: Double in [2700, 10_800, 25_200] {
                let sample = try Self.sample(.steps, 1000, from: start, seconds: seconds, in: timeZone)
                let expected = try Self.expectedSplit(
                    start: sample.start, end: sample.end, value: 1000, calendar: calendar)
                let split = sample.localDayValues()
                #expect(split.map(\.day) == expected.keys.sorted(), "\(zone) \(start) \(seconds)")
                for (day, value) in split {
                    #expect(abs(value - (expected[day] ?? -1)) < 1e-9, "\(zone) \(start) \(seconds) \(day)")
                }
                checked += 1
            }
            start += 20 * 60
        }
        #expect(checked == 360)
    }

    @Test(
        "hour-long samples every hour fill a 23-hour and a 25-hour day",
        arguments: [
            ("America/New_York", "2025-03-09", 23.0), ("America/New_York", "2025-11-02", 25),
            ("Europe/Berlin", "2025-03-30", 23), ("Europe/Berlin", "2025-10-26", 25),
            ("Europe/Berlin", "2025-07-01", 24),
        ])
    func shortAndLongDays(zone: String, date: String, hours: Double) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let calendar = Self.calendar(timeZone)
        let midnight = try Self.localMidnight(date, calendar)
        // Half past every hour, so the first and last samples straddle the day's midnights.
        var samples: [HealthSample] = []
        var start = midnight.addingTimeInterval(-1800)
        while start < midnight.addingTimeInterval(hours * 3600) {
            samples.append(try Self.sample(.activeMinutes, 3600, from: start, seconds: 3600, in: timeZone))
            start += 3600
        }
        let day = try #require(LocalDate(date))
        let total = samples.flatMap { $0.localDayValues() }.filter { $0.day == day }.reduce(0) { $0 + $1.value }
        #expect(abs(total - hours * 3600) < 1e-6)
    }

    @Test("a sample ending exactly at local midnight belongs to the day before")
    func endingAtMidnight() throws {
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let midnight = try Self.localMidnight("2025-06-15", Self.calendar(zone))
        let sample = try Self.sample(.distance, 500, from: midnight.addingTimeInterval(-3600), seconds: 3600, in: zone)
        #expect(sample.localDayValues().map(\.day) == [LocalDate("2025-06-14")])
    }

    @Test("a zero-length sample goes to the day of its start")
    func zeroLength() throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let midnight = try Self.localMidnight("2025-06-15", Self.calendar(zone))
        let sample = try Self.sample(.steps, 12, from: midnight, seconds: 0, in: zone)
        let split = sample.localDayValues()
        #expect(split.count == 1 && split[0].day == LocalDate("2025-06-15") && split[0].value == 12)
    }

    @Test("oxygen saturation is not split: it belongs to the day of its start")
    func oxygenNotSplit() throws {
        let zone = try #require(TimeZone(identifier: "UTC"))
        let midnight = try Self.localMidnight("2025-06-15", Self.calendar(zone))
        let sample = try Self.sample(
            .oxygenSaturation, 97, from: midnight.addingTimeInterval(-60), seconds: 120, in: zone)
        let split = sample.localDayValues()
        #expect(split.count == 1 && split[0].day == LocalDate("2025-06-14") && split[0].value == 97)
    }

    @Test("a sample several days long is split by time in each day")
    func multiDay() throws {
        let zone = try #require(TimeZone(identifier: "UTC"))
        let midnight = try Self.localMidnight("2025-06-15", Self.calendar(zone))
        let sample = try Self.sample(
            .workouts, 60, from: midnight.addingTimeInterval(-6 * 3600), seconds: 60 * 3600, in: zone)
        #expect(sample.localDayValues().map(\.value) == [6, 24, 24, 6])
    }

    @Test("END_BEFORE_START")
    func endBeforeStart() throws {
        let quantity = try HealthQuantity(type: .steps, canonicalValue: 10)
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        #expect(throws: HealthSampleError.endBeforeStart) {
            try HealthSample(quantity: quantity, start: now, end: now - 1, utcOffsetSeconds: 0)
        }
    }

    @Test("UTC_OFFSET_OUT_OF_RANGE")
    func offsetOutOfRange() throws {
        let quantity = try HealthQuantity(type: .steps, canonicalValue: 10)
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        #expect(throws: HealthSampleError.utcOffsetOutOfRange) {
            try HealthSample(quantity: quantity, start: now, end: now, utcOffsetSeconds: 18 * 3600 + 1)
        }
        #expect(throws: HealthSampleError.utcOffsetOutOfRange) {
            try HealthSample(quantity: quantity, start: now, end: now, utcOffsetSeconds: .min)
        }
    }

    @Test("DATE_OUT_OF_RANGE: a time before the year 1 or after 9999, or not a number, is refused")
    func dateOutOfRange() throws {
        let quantity = try HealthQuantity(type: .steps, canonicalValue: 10)
        let first = Date(timeIntervalSince1970: HealthSample.representableInstants.lowerBound)
        let last = Date(timeIntervalSince1970: HealthSample.representableInstants.upperBound)
        _ = try HealthSample(quantity: quantity, start: first, end: first, utcOffsetSeconds: 0)
        _ = try HealthSample(quantity: quantity, start: last, end: last, utcOffsetSeconds: 0)
        for instant in [first - 1, last + 1, Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: .nan)]
        {
            #expect(throws: HealthSampleError.dateOutOfRange) {
                try HealthSample(quantity: quantity, start: instant, end: last, utcOffsetSeconds: 0)
            }
        }
        #expect(throws: HealthSampleError.dateOutOfRange) {
            try HealthSample(quantity: quantity, start: first, end: last + 1, utcOffsetSeconds: 0)
        }
    }

    @Test("DURATION_TOO_LONG: no sample lasts more than 7 days, so splitting one costs at most 8 steps")
    func longestSample() throws {
        let quantity = try HealthQuantity(type: .workouts, canonicalValue: 10)
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        let week = try HealthSample(
            quantity: quantity, start: start, end: start + HealthSample.longestDuration, utcOffsetSeconds: 0)
        #expect(week.localDayValues().count == 8)
        #expect(throws: HealthSampleError.durationTooLong(limit: "7 days")) {
            try HealthSample(
                quantity: quantity, start: start, end: start + HealthSample.longestDuration + 0.001,
                utcOffsetSeconds: 0)
        }
        let millennia = try #require(LocalDate("0001-01-01")?.dayNumber)
        #expect(throws: HealthSampleError.durationTooLong(limit: "7 days")) {
            try HealthSample(
                quantity: quantity, start: Date(timeIntervalSince1970: Double(millennia * 86_400)),
                end: Date(timeIntervalSince1970: HealthSample.representableInstants.upperBound),
                utcOffsetSeconds: 0)
        }
    }
}
