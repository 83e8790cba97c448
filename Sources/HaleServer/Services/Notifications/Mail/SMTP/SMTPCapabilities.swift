/// The ESMTP extensions a server announced in its reply to EHLO.
struct SMTPCapabilities: Sendable, Equatable {
    /// The server offers STARTTLS (RFC 3207).
    var supportsStartTLS = false
    /// Announced SASL mechanisms, upper-cased, e.g. `["PLAIN", "LOGIN"]`.
    var authMechanisms: Set<String> = []
    /// The server announced SIZE (RFC 1870) and so accepts the `SIZE=` parameter on MAIL FROM.
    var supportsSize = false
    /// The announced maximum message size in bytes; nil when unannounced or unlimited (`SIZE 0`).
    var maximumMessageSize: Int?
    /// The server accepts 8-bit bodies (RFC 6152). This client only sends 7-bit, so it is informational.
    var supports8BitMIME = false

    /// No extensions.
    init() {}

    /// Reads the extensions from a 250 reply to EHLO; its first line is the server's greeting and is skipped.
    init(ehloReply: SMTPReply) {
        for line in ehloReply.lines.dropFirst() {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "=" }).map { $0.uppercased() }
            guard let keyword = words.first else { continue }
            record(keyword: keyword, parameters: Array(words.dropFirst()))
        }
    }

    private mutating func record(keyword: String, parameters: [String]) {
        switch keyword {
        case "STARTTLS":
            supportsStartTLS = true
        case "AUTH":
            // "AUTH=LOGIN" is an old, still-seen spelling of "AUTH LOGIN".
            authMechanisms.formUnion(parameters)
        case "SIZE":
            supportsSize = true
            maximumMessageSize = parameters.first.flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        case "8BITMIME":
            supports8BitMIME = true
        default:
            break
        }
    }
}
