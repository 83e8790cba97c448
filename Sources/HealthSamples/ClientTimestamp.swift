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
        let zone = String(decoding: bytes[zoneStart...], as: UTF8.self)
        let offset: Int?
        if zone == "Z" {
            offset = nil
        } else if let parsed = Self.offsetSeconds(zone) {
            offset = parsed
        } else {
            return nil
        }
        let local = String(decoding: bytes[..<zoneStart], as: UTF8.self)
        guard let instant = Self.instant(local, offset: offset ?? 0) else { return nil }
        self.instant = instant
        writtenOffset = offset
    }

    /// `±HH:MM` or `±HHMM` as seconds east of UTC, up to ±18 hours.
    public static func offsetSeconds(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 6 || bytes.count == 5, let sign = bytes.first, sign == 0x2B || sign == 0x2D else {
            return nil
        }
        let digits = bytes.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard digits.count == 4, bytes.count == 5 || bytes[3] == UInt8(ascii: ":"),
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

    /// `YYYY-MM-DDTHH:MM:SS` with optional `.fraction`, read as a time at `offset`.
    private static func instant(_ local: String, offset: Int) -> Date? {
        let parts = local.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let main = Array(parts[0].utf8)
        guard main.count == 19, main[13] == UInt8(ascii: ":"), main[16] == UInt8(ascii: ":"),
            let day = LocalDate(String(decoding: main[0..<10], as: UTF8.self)),
            let hour = ASCIIDigits.value(main[11..<13]), hour < 24, let minute = ASCIIDigits.value(main[14..<16]),
            minute < 60,
            let second = ASCIIDigits.value(main[17..<19]), second < 60
        else {
            return nil
        }
        var fraction = 0.0
        if parts.count == 2 {
            let digits = parts[1]
            guard (1...9).contains(digits.count), digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = Double("0." + digits)
            else {
                return nil
            }
            fraction = value
        }
        let seconds = day.dayNumber * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}
