/// A strict decoder and encoder for standard base64 (RFC 4648 §4): the `+` `/` alphabet, no whitespace, no unused
/// bits set, and `=` padding either required or optional.
enum StandardBase64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let sextets: [UInt8?] = {
        var table = [UInt8?](repeating: nil, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        return table
    }()

    /// The bytes `text` encodes, or nil when it is not canonical standard base64.
    static func decode(_ text: some Collection<UInt8>, paddingRequired: Bool) -> [UInt8]? {
        let characters = Array(text)
        let unpadded = characters.prefix { $0 != UInt8(ascii: "=") }
        let padding = characters.count - unpadded.count
        guard characters.suffix(padding).allSatisfy({ $0 == UInt8(ascii: "=") }),
            isValidLength(unpaddedCount: unpadded.count, padding: padding, paddingRequired: paddingRequired)
        else { return nil }
        return decodeSextets(unpadded)
    }

    /// `bytes` in standard base64 with padding and no line breaks.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let group = bytes[start..<min(start + 3, bytes.count)]
            let value = group.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * $1.offset) }
            for index in 0..<4 {
                let sextet = Int(value >> (18 - 6 * index) & 0x3F)
                output.append(index <= group.count ? alphabet[sextet] : UInt8(ascii: "="))
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `bytes` in base64url (RFC 4648 §5) without padding.
    static func encodeURLSafeUnpadded(_ bytes: [UInt8]) -> String {
        let urlSafe = encode(bytes).utf8.compactMap { character -> UInt8? in
            switch character {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            case UInt8(ascii: "="): nil
            default: character
            }
        }
        return String(decoding: urlSafe, as: UTF8.self)
    }

    private static func isValidLength(unpaddedCount: Int, padding: Int, paddingRequired: Bool) -> Bool {
        switch padding {
        case 0: paddingRequired ? unpaddedCount % 4 == 0 : unpaddedCount % 4 != 1
        case 1, 2: unpaddedCount % 4 == 4 - padding
        default: false
        }
    }

    private static func decodeSextets(_ characters: ArraySlice<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(characters.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bitCount = 0
        for character in characters {
            guard let sextet = sextets[Int(character)] else { return nil }
            accumulator = accumulator << 6 | UInt32(sextet)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bitCount)))
            }
        }
        // Unused trailing bits must be zero, so that each byte string has exactly one accepted encoding.
        guard accumulator & (1 << UInt32(bitCount) - 1) == 0 else { return nil }
        return output
    }
}
