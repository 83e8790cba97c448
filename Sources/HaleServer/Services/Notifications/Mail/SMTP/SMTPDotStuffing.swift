/// Prepares a message for the SMTP DATA phase (RFC 5321 §4.5.2).
enum SMTPDotStuffing {
    /// `message` with every line ending as CRLF, a second "." before each line that starts with ".", and the
    /// terminating `CRLF.CRLF`.
    static func encode(_ message: [UInt8]) -> [UInt8] {
        var lines = MailLineBreaks.split(message)
        // A message ending in a line break yields an empty last line, which is not part of the content.
        if lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
        var output: [UInt8] = []
        output.reserveCapacity(message.count + message.count / 64 + 8)
        for line in lines {
            if line.first == UInt8(ascii: ".") { output.append(UInt8(ascii: ".")) }
            output += line
            output += [0x0D, 0x0A]
        }
        output += [UInt8(ascii: "."), 0x0D, 0x0A]
        return output
    }
}
