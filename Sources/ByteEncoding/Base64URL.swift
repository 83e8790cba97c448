import Foundation

/// Base64url (RFC 4648 §5), read in two ways.
///
/// - `decode(_:)` and `bytes(_:)` read it as clients send it: with or without padding, and the standard alphabet's
///   `+` and `/` too, since some clients (Windows' TPM attestations among them) send plain base64. They work on UTF-8
///   bytes with a table: they are on every passkey ceremony's hot path, several times per request.
/// - `canonicalBytes(_:)` reads it as JOSE writes it (RFC 7515 §2): the `-` `_` alphabet, no padding, no whitespace
///   and no unused bits set, so each byte string has exactly one accepted encoding.
///
/// Both read what `encode(_:)` writes.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let invalid: UInt8 = 0xFF
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()

    /// Encodes without padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index < input.count {
            let count = min(3, input.count - index)
            var group = UInt32(input[index]) << 16
            if count > 1 { group |= UInt32(input[index + 1]) << 8 }
            if count > 2 { group |= UInt32(input[index + 2]) }
            for position in 0...count {
                output.append(alphabet[Int(group >> (18 - 6 * UInt32(position)) & 0x3F)])
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base64url or base64, with or without padding; returns `nil` for anything else.
    public static func decode(_ string: String) -> Data? {
        bytes(string).map { Data($0) }
    }

    /// Decodes like `decode(_:)`, into bytes.
    public static func bytes(_ string: String) -> [UInt8]? {
        var string = string
        return string.withUTF8 { decode(utf8: $0) }
    }

    private static func decode(utf8 characters: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var end = characters.count
        if end > 0, characters[end - 1] == UInt8(ascii: "=") {
            guard end.isMultiple(of: 4) else { return nil }
            for _ in 0..<2 where characters[end - 1] == UInt8(ascii: "=") {
                end -= 1
            }
        }
        guard end % 4 != 1 else { return nil }
        let capacity = end * 3 / 4
        return values.withUnsafeBufferPointer { table in
            var valid = true
            let output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                var accumulator: UInt32 = 0
                var bits: UInt32 = 0
                for character in characters[0..<end] {
                    let value = table[Int(character)]
                    valid = valid && value != invalid
                    accumulator = accumulator << 6 | UInt32(value & 0x3F)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        buffer[count] = UInt8(truncatingIfNeeded: accumulator >> bits)
                        count += 1
                    }
                }
            }
            return valid ? output : nil
        }
    }

    /// The bytes `text` encodes, or nil when it is not canonical unpadded base64url.
    public static func canonicalBytes(_ text: some StringProtocol) -> [UInt8]? {
        guard text.utf8.count % 4 != 1 else { return nil }
        var accumulator: UInt32 = 0
        var bitCount = 0
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 3 / 4)
        for character in text.utf8 {
            let sextet = values[Int(character)]
            guard sextet != invalid, character != UInt8(ascii: "+"), character != UInt8(ascii: "/") else { return nil }
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
}
