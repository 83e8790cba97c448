import NIOCore

/// Turns the bytes a server sends into `SMTPReply` values, with bounds so a hostile server cannot make the client
/// buffer without limit.
struct SMTPReplyParser {
    /// The longest reply line accepted, including its line ending. RFC 5321 needs only 512.
    static let maximumLineLength = 4096
    /// The most lines one reply may have.
    static let maximumLineCount = 100

    private var buffer = ByteBuffer()
    private var pendingCode: Int?
    private var pendingLines: [String] = []

    /// Creates a parser with nothing buffered.
    init() {}

    /// Whether bytes or lines of an unfinished reply are buffered. Used to refuse plaintext smuggled in after the
    /// server's answer to STARTTLS.
    var hasBufferedInput: Bool { buffer.readableBytes > 0 || pendingCode != nil }

    /// Appends bytes received from the server.
    mutating func append(_ bytes: ByteBuffer) {
        buffer.discardReadBytes()
        buffer.writeImmutableBuffer(bytes)
    }

    /// The next complete reply, or nil until more bytes arrive. Throws a transient error on a malformed or oversized
    /// reply; the parser is unusable afterwards.
    mutating func nextReply() throws(SMTPError) -> SMTPReply? {
        while let line = try nextLine() {
            let parsed = try Self.parseLine(line)
            if let pendingCode, pendingCode != parsed.code {
                throw .transient("malformed reply from server: code changed within a multi-line reply")
            }
            pendingCode = parsed.code
            pendingLines.append(parsed.text)
            guard pendingLines.count <= Self.maximumLineCount else {
                throw .transient("reply from server has more than \(Self.maximumLineCount) lines")
            }
            if parsed.isLast { return takePendingReply(code: parsed.code) }
        }
        return nil
    }

    /// Parses one reply line without its line ending: three digits, then `-` (more lines follow), a space or nothing
    /// (last line), then text.
    static func parseLine(_ line: [UInt8]) throws(SMTPError) -> (code: Int, isLast: Bool, text: String) {
        let digits = line.prefix(3)
        guard digits.count == 3, digits.allSatisfy({ (0x30...0x39).contains($0) }), (0x32...0x35).contains(line[0])
        else { throw .transient("malformed reply from server: no reply code") }
        let code = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard line.count > 3 else { return (code, true, "") }
        let separator = line[3]
        guard separator == UInt8(ascii: " ") || separator == UInt8(ascii: "-") else {
            throw .transient("malformed reply from server: bad separator after reply code")
        }
        return (code, separator == UInt8(ascii: " "), String(decoding: line.dropFirst(4), as: UTF8.self))
    }

    /// The next line without CRLF (a bare LF is tolerated), or nil when no full line is buffered yet.
    private mutating func nextLine() throws(SMTPError) -> [UInt8]? {
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: 0x0A) else {
            guard view.count < Self.maximumLineLength else { throw Self.lineTooLong }
            return nil
        }
        let length = newline - view.startIndex + 1
        guard length <= Self.maximumLineLength else { throw Self.lineTooLong }
        var line = buffer.readBytes(length: length) ?? []
        line.removeLast()
        if line.last == 0x0D { line.removeLast() }
        return line
    }

    private mutating func takePendingReply(code: Int) -> SMTPReply {
        let reply = SMTPReply(code: code, lines: pendingLines)
        pendingCode = nil
        pendingLines = []
        return reply
    }

    private static var lineTooLong: SMTPError {
        .transient("reply line from server is longer than \(maximumLineLength) bytes")
    }
}
