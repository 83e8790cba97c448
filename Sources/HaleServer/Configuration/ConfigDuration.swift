import Foundation

/// Parses durations written as a whole number and a unit: `ms`, `s`, `m`, `h` or `d` (`15m`, `30d`).
enum ConfigDuration {
    /// Ten years, in milliseconds: longer is a typo, and would overflow the dates it is added to.
    static let longest: Int64 = 3650 * 86_400_000

    static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        let units: [Substring: Int64] = ["ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000]
        guard let amount = Int64(digits), let unit = units[trimmed.dropFirst(digits.count)] else { return nil }
        let (milliseconds, overflow) = amount.multipliedReportingOverflow(by: unit)
        guard !overflow, milliseconds <= longest else { return nil }
        return .milliseconds(milliseconds)
    }
}

/// Parses sizes written as a whole number and an optional unit: `B`, `KiB`, `MiB`, `GiB` (`1MiB`).
enum ConfigByteSize {
    static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        guard let amount = Int(digits) else { return nil }
        let multipliers = ["": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30]
        guard let multiplier = multipliers[String(trimmed.dropFirst(digits.count))] else { return nil }
        let (size, overflow) = amount.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : size
    }
}
