import Foundation

/// Formats dates for the `Date:` header as RFC 5322 `date-time`, always in UTC: `Tue, 01 Jul 2025 09:05:03 +0000`.
enum RFC5322Date {
    private static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// The RFC 5322 representation of `date` in UTC. Independent of the process locale.
    static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let weekday = weekdayNames[(parts.weekday ?? 1) - 1]
        let month = monthNames[(parts.month ?? 1) - 1]
        let day = twoDigits(parts.day ?? 1)
        let time = [parts.hour, parts.minute, parts.second].map { twoDigits($0 ?? 0) }.joined(separator: ":")
        return "\(weekday), \(day) \(month) \(parts.year ?? 1970) \(time) +0000"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
