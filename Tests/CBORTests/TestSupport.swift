import CBOR
import Testing

extension Array where Element == UInt8 {
    /// Bytes from a hex string such as `"1903e8"`; spaces are ignored.
    init(hex: String) {
        let digits = [Character](hex.filter { !$0.isWhitespace })
        self = stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0..<$0 + 2]), radix: 16)! }
    }

    /// Lowercase hex, for readable failure messages.
    var hex: String {
        map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
    }
}

/// Decodes `hex` with `decoder` and expects exactly `code` at `offset`.
func expectRejection(
    _ hex: String,
    _ code: CBORError.Code,
    at offset: Int,
    decoder: CBORDecoder = CBORDecoder(),
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(throws: CBORError(code, offset: offset), "\(hex)", sourceLocation: sourceLocation) {
        try decoder.decode([UInt8](hex: hex))
    }
}

/// `count` bytes `0x00, 0x01, ...`, wrapping at 256.
func sampleBytes(_ count: Int, startingAt start: UInt8 = 0) -> [UInt8] {
    (0..<count).map { start &+ UInt8(truncatingIfNeeded: $0) }
}
