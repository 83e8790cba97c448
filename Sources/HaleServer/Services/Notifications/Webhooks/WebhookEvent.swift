import Foundation
import StrictJSON

/// One event for the app's backend, as every endpoint that takes its type receives it:
/// `{"type": "session.created", "timestamp": "…", "data": {"accountId": "…", …}}`, keys sorted.
public struct WebhookEvent: Sendable, Equatable {
    /// What happened.
    public let type: WebhookEventType
    /// Whose account it happened to, when one: an endpoint receives one account's events in order.
    public let account: AccountID?
    /// The facts, without secrets or health values. `accountId` is added from `account`.
    public let data: [String: JSONValue]
    /// When it happened.
    public let occurredAt: Date

    /// An event.
    public init(_ type: WebhookEventType, account: AccountID?, data: [String: JSONValue] = [:], at date: Date) {
        self.type = type
        self.account = account
        self.data = data
        self.occurredAt = date
    }

    /// The body every endpoint receives: canonical JSON (RFC 8785), so the bytes signed are the bytes stored.
    public var payload: String {
        var data = data
        if let account { data["accountId"] = .string(account.description) }
        return CanonicalJSON.text(
            of: .object([
                "type": .string(type.rawValue), "timestamp": .string(ISO8601.string(occurredAt)),
                "data": .object(data),
            ]))
    }

    /// A new message id (`webhook-id`): `msg_` and 32 hex digits, unique, stable across retries.
    static func newMessageID() -> String {
        "msg_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
