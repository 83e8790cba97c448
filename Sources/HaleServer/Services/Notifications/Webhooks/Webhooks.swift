import AsyncHTTPClient
import Foundation

/// The app backend's endpoints and what was delivered to them (Standard Webhooks): endpoints are added, listed,
/// removed and their secrets rotated by an operator (`hale webhooks`, or the admin API); events reach them from the
/// outbox (`SQLWebhookOutbox`), delivered by any instance (`deliverDue`).
public struct Webhooks: Sendable {
    let repository: any WebhookRepository
    let sealer: SecretSealer?
    let settings: HaleConfiguration.Webhooks
    /// No redirects; shut down with the application. Nil where nothing delivers (the CLI).
    let http: HTTPClient?
    let clock: HaleClock

    /// The most endpoints one server keeps.
    public static let maximumEndpoints = 50
    /// The longest URL and description.
    static let maximumURLLength = 2_048
    static let maximumDescriptionLength = 200

    /// Adds an endpoint that takes `eventTypes` (`*` for every one); returns it and its `whsec_` secret, which is
    /// shown this once.
    public func add(url: String, eventTypes: [String], description: String = "") async throws -> (
        endpoint: WebhookEndpoint, secret: String
    ) {
        try Self.check(url: url)
        let types = try Self.subscription(eventTypes)
        guard description.utf8.count <= Self.maximumDescriptionLength, !description.contains(where: \.isNewline) else {
            throw InvalidInput("description", .form("one line of at most \(Self.maximumDescriptionLength) bytes"))
        }
        guard try await repository.count() < Self.maximumEndpoints else {
            throw HaleError(
                .conflict, .conflict, message: "There are \(Self.maximumEndpoints) endpoints already; remove one.")
        }
        let id = UUID()
        let secret = WebhookSignature.newSecret()
        let record = WebhookEndpointRecord(
            id: id, url: url, description: description,
            secretSealed: try SealedSecret.seal(
                secret, purpose: WebhookEndpointRecord.purpose(of: id.uuidString), sealer: sealer),
            previousSecretSealed: nil, previousSecretUntil: nil, createdAt: clock.now())
        try await repository.insert(record, eventTypes: types)
        return (Self.endpoint(record, types), secret)
    }

    /// Every endpoint, oldest first.
    public func endpoints() async throws -> [WebhookEndpoint] {
        try await repository.endpoints().map { Self.endpoint($0.record, $0.eventTypes) }
    }

    /// Removes an endpoint with its deliveries; false when there is none.
    public func remove(_ id: UUID) async throws -> Bool {
        try await repository.delete(id)
    }

    /// A new secret for the endpoint, and until when the one before it still signs too (`webhooks.secretOverlap`),
    /// so the receiver may switch while both are sent. Nil when there is no such endpoint.
    public func rotateSecret(of id: UUID) async throws -> (secret: String, previousSecretUntil: Date)? {
        guard let record = try await repository.endpoint(id) else { return nil }
        let secret = WebhookSignature.newSecret()
        let sealed = try SealedSecret.seal(
            secret, purpose: WebhookEndpointRecord.purpose(of: id.uuidString), sealer: sealer)
        let until = clock.now().addingTimeInterval(settings.secretOverlap.timeInterval)
        guard try await repository.rotate(id, to: sealed, keeping: record.secretSealed, until: until) else {
            return nil
        }
        return (secret, until)
    }

    /// Sends a `webhook.test` event to the endpoint alone; returns its message id, or nil when there is no such
    /// endpoint.
    public func test(_ id: UUID) async throws -> String? {
        guard try await repository.endpoint(id) != nil else { return nil }
        let event = WebhookEvent(
            .webhookTest, account: nil, data: ["endpointId": .string(id.uuidString.lowercased())], at: clock.now())
        return try await repository.enqueue(event, to: id)
    }

    /// The newest deliveries with their attempts: of one endpoint, in one status, at most `limit` (1 to 500).
    public func deliveries(endpoint: UUID? = nil, status: WebhookDeliveryStatus? = nil, limit: Int = 50) async throws
        -> [WebhookDelivery]
    {
        guard (1...500).contains(limit) else { throw InvalidInput("limit", .between(1, 500)) }
        return try await repository.deliveries(endpoint: endpoint, status: status?.rawValue, limit: limit)
    }

    /// Sends a delivered or failed delivery again, from the first wait of the schedule; false when there is none.
    public func replay(_ delivery: Int64) async throws -> Bool {
        try await repository.replay(delivery, at: clock.now())
    }

    /// Deletes events older than `webhooks.retention` whose deliveries have ended; returns how many.
    public func purge() async throws -> Int {
        let before = clock.now().addingTimeInterval(-settings.retention.timeInterval)
        var purged = 0
        // Batches of their own, so no purge holds the write lock for long, however much has expired.
        while true {
            let batch = try await repository.purge(writtenBefore: before, limit: Self.purgeBatch)
            purged += batch
            guard batch == Self.purgeBatch else { return purged }
        }
    }

    /// Events one purge transaction deletes at most.
    static let purgeBatch = 500

    static func check(url: String) throws {
        guard url.utf8.count <= maximumURLLength, let parsed = URL(string: url), let host = parsed.host,
            !host.isEmpty, parsed.user == nil, parsed.fragment == nil,
            HaleConfiguration.SocialSignIn.isSecure(parsed, host: host)
        else {
            throw InvalidInput(
                "url",
                .form("an https URL of at most \(maximumURLLength) bytes, without credentials (http only on loopback)"))
        }
    }

    /// The event types as stored: known ones, once each, or `*` alone.
    static func subscription(_ types: [String]) throws -> [String] {
        let unique = Array(Set(types)).sorted()
        guard !unique.isEmpty, unique.count <= WebhookEventType.subscribable.count + 1 else {
            throw InvalidInput("eventTypes", .described("eventTypes must name at least one event type, or *"))
        }
        if unique.contains("*") {
            guard unique == ["*"] else {
                throw InvalidInput("eventTypes", .described("eventTypes may name * only alone"))
            }
            return unique
        }
        let known = Set(WebhookEventType.subscribable.map(\.rawValue))
        if let unknown = unique.first(where: { !known.contains($0) }) {
            throw InvalidInput(
                "eventTypes",
                .described(
                    "eventTypes names \"\(EchoedName.text(unknown))\", which is none of: "
                        + WebhookEventType.subscribable.map(\.rawValue).joined(separator: ", ")))
        }
        return unique
    }

    private static func endpoint(_ record: WebhookEndpointRecord, _ types: [String]) -> WebhookEndpoint {
        WebhookEndpoint(
            id: record.id, url: record.url, description: record.description, eventTypes: types,
            createdAt: record.createdAt, previousSecretUntil: record.previousSecretUntil)
    }
}
