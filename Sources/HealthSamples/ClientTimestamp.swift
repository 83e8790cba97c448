import Foundation

/// A time as mobile clients write it: ISO 8601 with `Z` or a numeric offset, with or without fractional seconds
/// (`2025-10-28T14:03:11Z` from iOS's `ISO8601DateFormatter`, `2025-10-28T16:03:11.250+02:00` from JavaScript or
/// Kotlin).
public struct ClientTimestamp: Sendable, Equatable {
    /// The instant.
    public let instant: Date
    /// The offset written after the time, in seconds east of UTC; nil for `Z`, which says only that the time is UTC.
    public let writtenOffset: Int?

    /// Parses `text`; nil unless it is a full timestamp with a zone.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 35, bytes[10] == UInt8(ascii: "T"),
            let zoneStart = Self.zoneStart(bytes)
        else {
            return nil
        }
        let offset: Int?
        if zoneStart == bytes.count - 1, bytes[zoneStart] == UInt8(ascii: "Z") {
            offset = nil
        } else if let parsed = Self.offsetSeconds(bytes[zoneStart...]) {
            offset = parsed
        } else {
            return nil
        }
        guard let instant = Self.instant(bytes[..<zoneStart], offset: offset ?? 0) else { return nil }
        self.instant = instant
        writtenOffset = offset
    }

    /// `±HH:MM` or `±HHMM` as seconds east of UTC, up to ±18 hours.
    public static func offsetSeconds(_ text: String) -> Int? {
        offsetSeconds(Array(text.utf8)[...])
    }

    private static func offsetSeconds(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 6 || bytes.count == 5, let sign = bytes.first, sign == 0x2B || sign == 0x2D else {
            return nil
        }
        let digits = bytes.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard digits.count == 4, bytes.count == 5 || bytes[bytes.startIndex + 3] == UInt8(ascii: ":"),
            digits.allSatisfy({ (0x30...0x39).contains($0) })
        else {
            return nil
        }
        let value = digits.map { Int($0 - 0x30) }
        let hours = value[0] * 10 + value[1]
        let minutes = value[2] * 10 + value[3]
        guard hours <= 18, minutes < 60 else { return nil }
        return (sign == 0x2D ? -1 : 1) * (hours * 3_600 + minutes * 60)
    }

    private static func zoneStart(_ bytes: [UInt8]) -> Int? {
        if bytes.last == UInt8(ascii: "Z") { return bytes.count - 1 }
        return bytes.lastIndex { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }.flatMap { $0 > 10 ? $0 : nil }
    }

    /// `YYYY-MM-DDTHH:MM:SS` with optional `.fraction` (1 to 9 digits), read as a time at `offset`. Byte by byte:
    /// a sync parses two of these for each of up to 10,000 samples.
    private static func instant(_ local: ArraySlice<UInt8>, offset: Int) -> Date? {
        let start = local.startIndex
        guard local.count >= 19, local[start + 4] == UInt8(ascii: "-"), local[start + 7] == UInt8(ascii: "-"),
            local[start + 13] == UInt8(ascii: ":"), local[start + 16] == UInt8(ascii: ":"),
            let year = ASCIIDigits.value(local[start..<start + 4]),
            let month = ASCIIDigits.value(local[start + 5..<start + 7]),
            let dayOfMonth = ASCIIDigits.value(local[start + 8..<start + 10]),
            let day = LocalDate(year: year, month: month, day: dayOfMonth),
            let hour = ASCIIDigits.value(local[start + 11..<start + 13]), hour < 24,
            let minute = ASCIIDigits.value(local[start + 14..<start + 16]), minute < 60,
            let second = ASCIIDigits.value(local[start + 17..<start + 19]), second < 60
        else {
            return nil
        }
        var fraction = 0.0
        if local.count > 19 {
            let digits = local[(start + 20)...]
            guard local[start + 19] == UInt8(ascii: "."), (1...9).contains(digits.count),
                let numerator = ASCIIDigits.value(digits)
            else {
                return nil
            }
            // Both exact in a Double (under 10^9), so the quotient is the nearest Double to the decimal fraction.
            var denominator = 1.0
            for _ in digits { denominator *= 10 }
            fraction = Double(numerator) / denominator
        }
        let seconds = day.dayNumber * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}
