import Foundation

/// One message to one recipient, with a plain-text and an HTML alternative.
struct OutgoingMail: Sendable, Equatable {
    /// The sender's address, used both in `From:` and in `MAIL FROM`.
    var fromAddress: String
    /// The sender's display name, if any; non-ASCII is encoded as RFC 2047 encoded-words.
    var fromName: String?
    /// The single recipient's address, used both in `To:` and in `RCPT TO`.
    var toAddress: String
    /// The subject; non-ASCII is encoded as RFC 2047 encoded-words.
    var subject: String
    /// The `text/plain` alternative.
    var textBody: String
    /// The `text/html` alternative.
    var htmlBody: String
    /// The Message-ID without angle brackets, e.g. `3f2a…@example.org`.
    var messageID: String
    /// The origination date written to the `Date:` header.
    var date: Date

    /// Creates a mail; `messageID` defaults to a random ID in the sender's domain and `date` to now.
    init(
        fromAddress: String,
        fromName: String? = nil,
        toAddress: String,
        subject: String,
        textBody: String,
        htmlBody: String,
        messageID: String? = nil,
        date: Date = Date()
    ) {
        self.fromAddress = fromAddress
        self.fromName = fromName
        self.toAddress = toAddress
        self.subject = subject
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.messageID = messageID ?? Self.makeMessageID(domain: Self.domain(of: fromAddress))
        self.date = date
    }

    /// A new globally unique Message-ID (without angle brackets) in `domain`.
    static func makeMessageID(domain: String) -> String {
        "\(UUID().uuidString.lowercased())@\(domain)"
    }

    private static func domain(of address: String) -> String {
        guard let at = address.lastIndex(of: "@") else { return "localhost" }
        let domain = address[address.index(after: at)...]
        return domain.isEmpty ? "localhost" : String(domain)
    }
}
