/// Strict base64url (RFC 4648 §5) as JWS uses it (RFC 7515 §2): the `-` `_` alphabet, no padding, no whitespace, and
/// no unused bits set, so that each byte string has exactly one accepted encoding.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let sextets: [UInt8?] = {
        var table = [UInt8?](repeating: nil, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        return table
    }()

    /// The bytes `text` encodes, or nil when it is not canonical unpadded base64url.
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bitCount = 0
        for character in characters {
            guard let sextet = sextets[Int(character)] else { return nil }
            accumulator = (accumulator << 6 | UInt32(sextet)) & 0xFFFF
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bitCount)))
            }
        }
        guard accumulator & (1 << UInt32(bitCount) - 1) == 0 else { return nil }
        return output
    }

    /// `bytes` as unpadded base64url, the one encoding ``decode(_:)`` accepts.
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var output: [UInt8] = []
        var accumulator: UInt32 = 0
        var bitCount = 0
        for byte in bytes {
            accumulator = (accumulator << 8 | UInt32(byte)) & 0xFFFF
            bitCount += 8
            while bitCount >= 6 {
                bitCount -= 6
                output.append(alphabet[Int(accumulator >> UInt32(bitCount) & 0x3F)])
            }
        }
        if bitCount > 0 { output.append(alphabet[Int(accumulator << UInt32(6 - bitCount) & 0x3F)]) }
        return String(decoding: output, as: UTF8.self)
    }
}
