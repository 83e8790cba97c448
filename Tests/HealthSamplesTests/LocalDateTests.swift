import Foundation
import Testing

@testable import HealthSamples

/// `LocalDate` against Foundation's calendars, an independent implementation.
@Suite("Health: calendar days and ISO weeks")
struct LocalDateTests {
    static let utc = TimeZone(identifier: "UTC")!

    static func calendar(_ identifier: Calendar.Identifier, _ zone: TimeZone = utc) -> Calendar {
        var calendar = Calendar(identifier: identifier)
        calendar.timeZone = zone
        return calendar
    }

    @Test("every day from 1999 to 2031 has Foundation's date, weekday and ISO week")
    func matchesFoundation() throws {
        let gregorian = Self.calendar(.gregorian)
        let iso = Self.calendar(.iso8601)
        let first = try #require(LocalDate("1999-12-01"))
        let last = try #require(LocalDate("2031-01-31"))
        var day = first
        while day <= last {
            let instant = Date(timeIntervalSince1970: TimeInterval(day.dayNumber) * 86_400)
            let expected = gregorian.dateComponents([.year, .month, .day, .weekday], from: instant)
            let (year, month, dayOfMonth) = day.components
            #expect(year == expected.year && month == expected.month && dayOfMonth == expected.day, "\(day)")
            #expect(day.isoWeekday == ((expected.weekday ?? 0) + 5) % 7 + 1, "\(day)")
            let week = iso.dateComponents([.yearForWeekOfYear, .weekOfYear], from: instant)
            #expect(day.isoWeek.year == week.yearForWeekOfYear && day.isoWeek.week == week.weekOfYear, "\(day)")
            #expect(LocalDate(day.description) == day)
            day = day.adding(days: 1)
        }
    }

    @Test(
        "ISO week labels across year ends",
        arguments: [
            ("2024-12-30", "2025-W01"), ("2025-01-01", "2025-W01"), ("2020-12-31", "2020-W53"),
            ("2021-01-03", "2020-W53"), ("2021-01-04", "2021-W01"), ("2025-07-24", "2025-W30"),
            ("2026-12-31", "2026-W53"), ("2027-01-01", "2026-W53"), ("2015-12-31", "2015-W53"),
        ])
    func weekLabels(day: String, label: String) throws {
        #expect(try #require(LocalDate(day)).isoWeekLabel == label)
    }

    @Test(
        "only strict YYYY-MM-DD dates that exist are read",
        arguments: [
            "2025-7-24", "2025-07-24T00:00:00Z", " 2025-07-24", "2025-02-29", "2100-02-29", "2025-13-01",
            "2025-00-10", "2025-04-31", "0000-01-01", "20250724", "2025/07/24", "", "２０２５-07-24",
        ])
    func strictParsing(text: String) {
        #expect(LocalDate(text) == nil)
    }

    @Test("leap days that exist are read")
    func leapDays() {
        #expect(LocalDate("2024-02-29") != nil)
        #expect(LocalDate("2000-02-29") != nil)
    }

    @Test(
        "the local day of an instant, across daylight-saving changes, is Foundation's",
        arguments: ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Apia"])
    func localDayOfInstants(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let calendar = Self.calendar(.gregorian, timeZone)
        // Every 37 minutes through 2025 and the turn of 2026: every DST change of these zones, at odd minutes.
        var instant = Date(timeIntervalSince1970: 1_735_600_000)
        while instant.timeIntervalSince1970 < 1_767_400_000 {
            let expected = calendar.dateComponents([.year, .month, .day], from: instant)
            let (year, month, day) = LocalDate(at: instant, in: timeZone).components
            #expect(year == expected.year && month == expected.month && day == expected.day, "\(instant)")
            instant += 37 * 60
        }
    }
}
