/// Lowercase hexadecimal, written from a table: `String(format: "%02x")` per byte cost a twentieth of a sign-in.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hex.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of hex text, either case; nil for an odd length or any other character.
    public static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        for index in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
