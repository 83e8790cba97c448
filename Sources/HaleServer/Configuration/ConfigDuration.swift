import Foundation

/// Parses durations written as a whole number and a unit: `ms`, `s`, `m`, `h` or `d` (`15m`, `30d`).
enum ConfigDuration {
    static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        guard let amount = Int64(digits) else { return nil }
        switch trimmed.dropFirst(digits.count) {
        case "ms": return .milliseconds(amount)
        case "s": return .seconds(amount)
        case "m": return .seconds(amount * 60)
        case "h": return .seconds(amount * 3600)
        case "d": return .seconds(amount * 86_400)
        default: return nil
        }
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
