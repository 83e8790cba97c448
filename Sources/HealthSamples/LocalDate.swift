import Foundation

/// A calendar day with no time zone — what a day's health totals are for — in the proleptic Gregorian calendar.
///
/// Arithmetic is on day numbers, never on instants, so daylight-saving changes cannot shift a day.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let dayNumber: Int

    /// The day `dayNumber` days after 1970-01-01.
    public init(dayNumber: Int) {
        self.dayNumber = dayNumber
    }

    /// The day with this year, month (1–12) and day of month, if it exists.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.daysIn(month: month, year: year)).contains(day)
        else {
            return nil
        }
        dayNumber = Self.dayNumber(year: year, month: month, day: day)
    }

    /// A strict `YYYY-MM-DD`.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = ASCIIDigits.value(bytes[0..<4]), let month = ASCIIDigits.value(bytes[5..<7]),
            let day = ASCIIDigits.value(bytes[8..<10])
        else {
            return nil
        }
        self.init(year: year, month: month, day: day)
    }

    /// The day it is at `instant` in `timeZone`.
    public init(at instant: Date, in timeZone: TimeZone) {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: instant)
        self.init(dayNumber: Int((Double(seconds) / 86_400).rounded(.down)))
    }

    /// Year, month and day of month.
    public var components: (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days.
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The day `days` later (earlier when negative).
    public func adding(days: Int) -> LocalDate {
        LocalDate(dayNumber: dayNumber + days)
    }

    /// ISO weekday: 1 is Monday, 7 is Sunday.
    public var isoWeekday: Int {
        // 1970-01-01 was a Thursday.
        ((dayNumber + 3) % 7 + 7) % 7 + 1
    }

    /// The ISO 8601 week-numbering year and week: the week belongs to the year of its Thursday.
    public var isoWeek: (year: Int, week: Int) {
        let thursday = adding(days: 4 - isoWeekday)
        let year = thursday.components.year
        let firstOfYear = Self.dayNumber(year: year, month: 1, day: 1)
        return (year, (thursday.dayNumber - firstOfYear) / 7 + 1)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let (year, month, day) = components
        guard (0...9999).contains(year) else {
            return "\(Self.padded(year, 4))-\(Self.padded(month, 2))-\(Self.padded(day, 2))"
        }
        return Self.ascii(count: 10) { text in
            Self.write(year, width: 4, at: 0, in: text)
            text[4] = UInt8(ascii: "-")
            Self.write(month, width: 2, at: 5, in: text)
            text[7] = UInt8(ascii: "-")
            Self.write(day, width: 2, at: 8, in: text)
        }
    }

    /// `YYYY-Www`, such as `2025-W30`.
    public var isoWeekLabel: String {
        let (year, week) = isoWeek
        guard (0...9999).contains(year) else { return "\(Self.padded(year, 4))-W\(Self.padded(week, 2))" }
        return Self.ascii(count: 8) { text in
            Self.write(year, width: 4, at: 0, in: text)
            text[4] = UInt8(ascii: "-")
            text[5] = UInt8(ascii: "W")
            Self.write(week, width: 2, at: 6, in: text)
        }
    }

    /// `YYYY-MM`, such as `2025-07`.
    public var monthLabel: String {
        let (year, month, _) = components
        guard (0...9999).contains(year) else { return "\(Self.padded(year, 4))-\(Self.padded(month, 2))" }
        return Self.ascii(count: 7) { text in
            Self.write(year, width: 4, at: 0, in: text)
            text[4] = UInt8(ascii: "-")
            Self.write(month, width: 2, at: 5, in: text)
        }
    }

    /// Whether `lhs` is the earlier day.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        lhs.dayNumber < rhs.dayNumber
    }

    /// Howard Hinnant's days_from_civil.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Labels are written byte by byte: statistics make one for each of up to 3,660 days, and interpolation with
    /// padding cost more than the rest of the grouping.
    private static func ascii(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> String {
        String(unsafeUninitializedCapacity: count) { text in
            fill(text)
            return count
        }
    }

    private static func write(_ value: Int, width: Int, at offset: Int, in text: UnsafeMutableBufferPointer<UInt8>) {
        var value = value
        for index in stride(from: offset + width - 1, through: offset, by: -1) {
            text[index] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
