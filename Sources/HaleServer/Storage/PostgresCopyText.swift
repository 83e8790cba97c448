import Foundation
import HealthSamples
import NIOCore

/// Rows in the text format of PostgreSQL's `COPY … FROM STDIN`: fields apart by tabs, rows ended by newlines, `\N`
/// for null, and a backslash before each backslash, tab, newline and carriage return inside a value.
struct PostgresCopyText {
    private(set) var buffer: ByteBuffer
    private var fieldsInRow = 0

    init(capacity: Int = 64 * 1024) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    mutating func text(_ value: String?) {
        startField()
        guard let value else {
            writeNull()
            return
        }
        let special: (UInt8) -> Bool = {
            $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
        }
        guard value.utf8.contains(where: special) else {
            buffer.writeString(value)
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
            case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
            case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
            case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
            default: buffer.writeInteger(byte)
            }
        }
    }

    /// A UUID in its canonical form, `8-4-4-4-12` hex digits.
    mutating func uuid(_ value: UUID) {
        startField()
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 36) { out in
            var at = 0
            withUnsafeBytes(of: value.uuid) { bytes in
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    out[at] = Self.hexDigits[Int(byte >> 4)]
                    out[at + 1] = Self.hexDigits[Int(byte & 0x0F)]
                    at += 2
                }
            }
            return at
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    mutating func integer<I: BinaryInteger>(_ value: I?) {
        startField()
        guard let value else {
            writeNull()
            return
        }
        buffer.writeString(String(value))
    }

    /// A finite double, written so that it reads back as the same double.
    mutating func double(_ value: Double) {
        precondition(value.isFinite, "non-finite values are refused where they enter")
        startField()
        buffer.writeString(value.description)
    }

    mutating func bool(_ value: Bool) {
        startField()
        buffer.writeStaticString(value ? "t" : "f")
    }

    /// A `timestamptz` in UTC to the microsecond: `YYYY-MM-DD HH:MM:SS.ffffff+00`. Written into the buffer in place:
    /// four per row, byte by byte through `ByteBuffer`, were 9% of the event loop's work in an import (`perf`).
    mutating func timestamp(_ value: Date) {
        startField()
        let microseconds = Int64((value.timeIntervalSince1970 * 1_000_000).rounded())
        let (days, inDay) = microseconds.floorDividedBy(86_400_000_000)
        let (year, month, day) = LocalDate(dayNumber: Int(days)).components
        let seconds = Int(inDay / 1_000_000)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 32) { out in
            var at = Self.digits(year, 4, then: "-", into: out, at: 0)
            at = Self.digits(month, 2, then: "-", into: out, at: at)
            at = Self.digits(day, 2, then: " ", into: out, at: at)
            at = Self.digits(seconds / 3_600, 2, then: ":", into: out, at: at)
            at = Self.digits(seconds / 60 % 60, 2, then: ":", into: out, at: at)
            at = Self.digits(seconds % 60, 2, then: ".", into: out, at: at)
            at = Self.digits(Int(inDay % 1_000_000), 6, then: "+", into: out, at: at)
            return Self.digits(0, 2, into: out, at: at)
        }
    }

    /// Ends the row.
    mutating func endRow() {
        buffer.writeInteger(UInt8(ascii: "\n"))
        fieldsInRow = 0
    }

    private mutating func writeNull() {
        buffer.writeStaticString("\\N")
    }

    private mutating func startField() {
        if fieldsInRow > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
        fieldsInRow += 1
    }

    /// Writes `value`'s last `width` decimal digits, with leading zeros, at `at`, and `then` after them when given;
    /// returns where they end.
    private static func digits(
        _ value: Int, _ width: Int, then: Unicode.Scalar? = nil, into out: UnsafeMutableRawBufferPointer, at: Int
    ) -> Int {
        var rest = value
        for index in stride(from: at + width - 1, through: at, by: -1) {
            out[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        guard let then else { return at + width }
        out[at + width] = UInt8(ascii: then)
        return at + width + 1
    }
}

extension Int64 {
    /// The quotient rounded down and the remainder that is never negative.
    fileprivate func floorDividedBy(_ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
