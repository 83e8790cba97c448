/// Quoted-printable transfer encoding (RFC 2045 §6.7) for UTF-8 text body parts.
enum QuotedPrintable {
    /// The longest encoded line, excluding CRLF, that RFC 2045 allows.
    static let maximumLineLength = 76

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Encodes `text` as UTF-8 quoted-printable. Any CR, LF or CRLF in `text` becomes a CRLF hard line break, and
    /// soft line breaks keep every line within `maximumLineLength`. The result is 7-bit ASCII.
    static func encode(_ text: String) -> [UInt8] {
        var output: [UInt8] = []
        for (index, line) in MailLineBreaks.split(Array(text.utf8)).enumerated() {
            if index > 0 { output += [0x0D, 0x0A] }
            output += encodeLine(line)
        }
        return output
    }

    private static func encodeLine(_ line: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        var lineLength = 0
        for (offset, byte) in line.enumerated() {
            let isLast = offset == line.count - 1
            let token = encodeByte(byte, atEndOfLine: isLast)
            // Leave room for the "=" of a soft line break, unless this token ends the line anyway.
            let limit = isLast ? maximumLineLength : maximumLineLength - 1
            if lineLength + token.count > limit {
                output += [UInt8(ascii: "="), 0x0D, 0x0A]
                lineLength = 0
            }
            output += token
            lineLength += token.count
        }
        return output
    }

    private static func encodeByte(_ byte: UInt8, atEndOfLine: Bool) -> [UInt8] {
        let isPrintable = (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "=")
        // Trailing whitespace would be stripped by transports, so it is encoded at the end of a line.
        let isSafeWhitespace = (byte == 0x20 || byte == 0x09) && !atEndOfLine
        if isPrintable || isSafeWhitespace { return [byte] }
        return [UInt8(ascii: "="), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
    }
}
