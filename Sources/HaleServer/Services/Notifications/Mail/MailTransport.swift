import Foundation

/// What a transport did with one mail.
enum MailSendOutcome: Sendable, Equatable {
    /// Accepted by the mail server, or written to the mail directory.
    case delivered
    /// Failed in a way that may pass: a connection, a timeout, a 4xx reply. The reason never holds the body.
    case retry(String)
    /// Refused for good: a 5xx reply, an untrusted certificate, an address the server will not take.
    case rejected(String)
}

/// Sends a rendered mail: through SMTP, or into a directory.
protocol MailTransport: Sendable {
    func send(_ mail: OutgoingMail) async -> MailSendOutcome
}
