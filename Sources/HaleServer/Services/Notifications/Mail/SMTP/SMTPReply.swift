/// One complete SMTP reply, possibly spanning several `250-…` lines.
struct SMTPReply: Sendable, Equatable {
    /// The longest piece of server text carried into an error reason.
    static let maximumSummaryLength = 200

    /// The three-digit reply code, e.g. 250.
    var code: Int
    /// The text of each line, after the code and the separator.
    var lines: [String]

    /// 2xx: the command succeeded.
    var isPositiveCompletion: Bool { (200..<300).contains(code) }
    /// 3xx: the server waits for more input (DATA, AUTH challenges).
    var isPositiveIntermediate: Bool { (300..<400).contains(code) }
    /// 4xx: a temporary failure.
    var isTransientNegative: Bool { (400..<500).contains(code) }
    /// 5xx: a permanent failure.
    var isPermanentNegative: Bool { (500..<600).contains(code) }

    /// The code and first line, limited to printable ASCII and `maximumSummaryLength` characters, for error reasons.
    var summary: String {
        let text = (lines.first ?? "").unicodeScalars.map { (0x20...0x7E).contains($0.value) ? Character($0) : "?" }
        return "\(code) " + String(text.prefix(Self.maximumSummaryLength))
    }
}
