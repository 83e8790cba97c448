/// Why sending a mail failed, classified for an outbox that retries.
///
/// Reasons never contain the SMTP password or the message body.
enum SMTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Worth retrying later: connection failures, timeouts, 4xx replies, a server breaking the protocol.
    case transient(String)
    /// Retrying with the same settings will not help: an untrusted certificate, no STARTTLS, rejected credentials,
    /// a 5xx reply before the message is named. An outbox still retries these with backoff, since fixing the
    /// settings or the server lets the waiting mail through.
    case permanent(String)
    /// This message will never be taken: a 5xx reply to its sender, recipient or content, or a mail that cannot be
    /// rendered. An outbox gives it up.
    case rejected(String)

    /// The human-readable reason, without the classification.
    var reason: String {
        switch self {
        case .transient(let reason), .permanent(let reason), .rejected(let reason): reason
        }
    }

    /// Whether the same attempt may succeed later with the same settings.
    var isTransient: Bool {
        if case .transient = self { return true }
        return false
    }

    /// A one-line description including the classification.
    var description: String {
        switch self {
        case .transient(let reason): "transient SMTP failure: \(reason)"
        case .permanent(let reason): "permanent SMTP failure: \(reason)"
        case .rejected(let reason): "SMTP server rejected the message: \(reason)"
        }
    }
}
