/// The per-day summaries of a range read back as one text value: each summary's stored `packed` text,
/// `day:steps:duration:calories:distance`, days separated by commas. Thousands of rows decoded value by value cost
/// more than the query; this reads the bytes once.
enum PackedDailyTotals {
    /// The text is not what the summary query writes.
    struct Malformed: Error {}

    /// The days and their totals.
    static func parse(_ text: String) throws -> [LocalDate: HealthTotals] {
        var text = text
        return try text.withUTF8 { try parse(bytes: $0) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) throws -> [LocalDate: HealthTotals] {
        var totals: [LocalDate: HealthTotals] = [:]
        totals.reserveCapacity(bytes.count / 24)
        var fields = (Int64(0), Int64(0), Int64(0), Int64(0), Int64(0))
        var reader = Reader(bytes: bytes)
        while !reader.atEnd {
            fields.0 = try reader.integer(endingWith: UInt8(ascii: ":"))
            fields.1 = try reader.integer(endingWith: UInt8(ascii: ":"))
            fields.2 = try reader.integer(endingWith: UInt8(ascii: ":"))
            fields.3 = try reader.integer(endingWith: UInt8(ascii: ":"))
            fields.4 = try reader.integer(endingWith: UInt8(ascii: ","))
            totals[LocalDate(dayNumber: Int(fields.0))] = HealthTotals(
                steps: fields.1, duration: fields.2, caloriesHundredths: fields.3, distanceHundredths: fields.4)
        }
        return totals
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var atEnd: Bool { index == bytes.count }

        /// A decimal integer, optionally negative, followed by `separator` or the end of the text.
        mutating func integer(endingWith separator: UInt8) throws -> Int64 {
            let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let first = index
            var value: Int64 = 0
            while index < bytes.count, bytes[index] != separator {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10, index - first < 18 else { throw Malformed() }
                value = value * 10 + Int64(digit)
                index += 1
            }
            guard index > first else { throw Malformed() }
            if index < bytes.count { index += 1 }
            return negative ? -value : value
        }
    }
}
