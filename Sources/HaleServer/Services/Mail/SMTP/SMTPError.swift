/// Why sending a mail failed, classified for an outbox that retries.
///
/// Reasons never contain the SMTP password or the message body.
enum SMTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Worth retrying later: connection failures, timeouts, 4xx replies, a server breaking the protocol.
    case transient(String)
    /// Retrying will not help: 5xx replies, an untrusted certificate, no STARTTLS, rejected credentials,
    /// invalid addresses or message fields.
    case permanent(String)

    /// The human-readable reason, without the classification.
    var reason: String {
        switch self {
        case .transient(let reason), .permanent(let reason): reason
        }
    }

    /// Whether an outbox should try this message again later.
    var isTransient: Bool {
        if case .transient = self { return true }
        return false
    }

    /// A one-line description including the classification.
    var description: String {
        switch self {
        case .transient(let reason): "transient SMTP failure: \(reason)"
        case .permanent(let reason): "permanent SMTP failure: \(reason)"
        }
    }
}
