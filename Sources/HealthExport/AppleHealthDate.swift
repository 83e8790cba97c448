import Foundation
import HealthSamples

/// The Health app's export dates, `2019-05-14 18:52:09 -0400`: a local time and the device's offset then.
public struct AppleHealthDate: Sendable, Equatable {
    /// The instant.
    public let date: Date
    /// The offset from UTC, in seconds, that the device had.
    public let offsetSeconds: Int

    /// Parses an export date; `nil` for anything else.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 25, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: " "), bytes[20] == UInt8(ascii: "+") || bytes[20] == UInt8(ascii: "-"),
            let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]),
            let day = Self.number(bytes[8..<10]), let hour = Self.number(bytes[11..<13]),
            let minute = Self.number(bytes[14..<16]), let second = Self.number(bytes[17..<19]),
            let offsetHours = Self.number(bytes[21..<23]), let offsetMinutes = Self.number(bytes[23..<25]),
            let localDay = LocalDate(year: year, month: month, day: day), hour < 24, minute < 60, second < 61,
            offsetHours <= 18, offsetMinutes < 60
        else {
            return nil
        }
        let sign = bytes[20] == UInt8(ascii: "-") ? -1 : 1
        let offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        let local = localDay.dayNumber * 86_400 + hour * 3600 + minute * 60 + second
        date = Date(timeIntervalSince1970: TimeInterval(local - offset))
        offsetSeconds = offset
        // A leap second is the next minute's first, whose day may be the next.
        iso8601 = second < 60 ? Self.iso8601(rewriting: bytes) : Self.iso8601(local: local, offset: offset)
    }

    /// The same instant and offset in ISO 8601, `2019-05-14T18:52:09-04:00`, as the sync API takes it.
    public let iso8601: String

    /// `2019-05-14 18:52:09 -0400` as `2019-05-14T18:52:09-04:00`, byte by byte: the import writes two per record.
    private static func iso8601(rewriting text: [UInt8]) -> String {
        let isZero = text[21...24].allSatisfy { $0 == UInt8(ascii: "0") }
        return String(unsafeUninitializedCapacity: 25) { iso in
            for index in 0..<19 { iso[index] = text[index] }
            iso[10] = UInt8(ascii: "T")
            iso[19] = isZero ? UInt8(ascii: "+") : text[20]
            iso[20] = text[21]
            iso[21] = text[22]
            iso[22] = UInt8(ascii: ":")
            iso[23] = text[23]
            iso[24] = text[24]
            return 25
        }
    }

    private static func iso8601(local: Int, offset: Int) -> String {
        let days = Int((Double(local) / 86_400).rounded(.down))
        let seconds = local - days * 86_400
        let (year, month, day) = LocalDate(dayNumber: days).components
        return "\(pad(year, 4))-\(pad(month))-\(pad(day))T\(pad(seconds / 3600)):\(pad(seconds / 60 % 60)):"
            + "\(pad(seconds % 60))\(Self.offset(offset))"
    }

    /// `±HH:MM`.
    public var offset: String { Self.offset(offsetSeconds) }

    private static func offset(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        return (seconds < 0 ? "-" : "+") + pad(magnitude / 3600) + ":" + pad(magnitude / 60 % 60)
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
