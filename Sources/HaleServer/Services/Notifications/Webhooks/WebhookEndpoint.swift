import Foundation

/// Where the app's backend receives events, as an operator sees it; the secrets are never shown again after they are
/// made.
public struct WebhookEndpoint: Sendable, Equatable, Codable {
    /// The endpoint's id.
    public let id: UUID
    /// The URL events are posted to.
    public let url: String
    /// What it is for, in the operator's words.
    public let description: String
    /// The event types it takes, or `["*"]` for every one.
    public let eventTypes: [String]
    /// When it was added.
    public let createdAt: Date
    /// Until when the secret before the last rotation still signs too, if one does.
    public let previousSecretUntil: Date?
}

/// A row of `webhook_endpoints`.
struct WebhookEndpointRecord: Sendable, Codable {
    let id: UUID
    let url: String
    let description: String
    /// The `whsec_` secret, sealed under the key-encryption key for `purpose(of:)`.
    let secretSealed: String
    let previousSecretSealed: String?
    let previousSecretUntil: Date?
    let createdAt: Date

    /// What the endpoint's secrets are sealed for.
    static func purpose(of id: String) -> String {
        "webhook-endpoint:\(id.lowercased())"
    }
}

/// Where a delivery is: what `hale webhooks deliveries --status` and the admin API filter by.
public enum WebhookDeliveryStatus: String, Sendable, CaseIterable {
    /// Waiting for its next try.
    case pending
    /// Being tried now.
    case sending
    /// The endpoint took it.
    case delivered
    /// Given up after the retry schedule.
    case failed
}

/// One delivery of an event to an endpoint, with its attempts: what `hale webhooks deliveries` shows.
public struct WebhookDelivery: Sendable, Equatable, Codable {
    /// One try.
    public struct Attempt: Sendable, Equatable, Codable {
        /// When it was sent.
        public let attemptedAt: Date
        /// The endpoint's HTTP status, when it answered.
        public let statusCode: Int?
        /// Why the try failed, when it did: `http_503`, `timeout`, `unreachable`.
        public let error: String?
        /// How long the endpoint took to answer, or to fail.
        public let milliseconds: Int
    }

    /// The delivery's id, for `replay`.
    public let id: Int64
    /// The endpoint it goes to.
    public let endpointId: UUID
    /// The `webhook-id` the endpoint saw.
    public let messageId: String
    /// The event's type.
    public let eventType: String
    /// The account the event is about, if one.
    public let accountId: UUID?
    /// `pending`, `sending`, `delivered` or `failed` (given up after the retry schedule).
    public let status: String
    /// Tries so far (since a replay).
    public let attempts: Int
    /// When a pending delivery is tried next.
    public let nextAttemptAt: Date
    /// The endpoint's last HTTP status, if it answered.
    public let lastStatusCode: Int?
    /// Why the last try failed, if it did.
    public let lastError: String?
    /// When the event was written.
    public let createdAt: Date
    /// When it was delivered or given up.
    public let finishedAt: Date?
    /// Every try, oldest first.
    public var history: [Attempt] = []
}
