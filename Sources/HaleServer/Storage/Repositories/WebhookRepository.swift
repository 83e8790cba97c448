import Foundation

/// How a claimed webhook delivery's try ended.
enum WebhookDeliveryOutcome: Sendable {
    /// The endpoint acknowledged it.
    case delivered
    /// It failed and is tried again at that time.
    case retry(at: Date)
    /// It failed for the last time.
    case failed
}

/// The app backend's webhook endpoints and their deliveries. Events are written in the changes' own transactions,
/// by the repositories that commit those changes.
protocol WebhookRepository: Sendable {
    /// Queues `event` for `endpoint` alone, whatever it subscribes to; returns its message id.
    func enqueue(_ event: WebhookEvent, to endpoint: UUID) async throws -> String
    /// Stores a new endpoint and the event types it subscribes to.
    func insert(_ endpoint: WebhookEndpointRecord, eventTypes: [String]) async throws
    /// Every endpoint, with its event types.
    func endpoints() async throws -> [(record: WebhookEndpointRecord, eventTypes: [String])]
    /// The endpoint with this id.
    func endpoint(_ id: UUID) async throws -> WebhookEndpointRecord?
    /// How many endpoints there are.
    func count() async throws -> Int
    /// Deletes an endpoint and what waits for it; false when there was none.
    func delete(_ id: UUID) async throws -> Bool
    /// Replaces an endpoint's secret, keeping `previous` signing beside it until `until`; false when there is none.
    func rotate(_ id: UUID, to sealed: String, keeping previous: String, until: Date) async throws -> Bool
    /// Claims up to `limit` deliveries due at `date` for `lease`: an endpoint receives each account's events in
    /// order, and each delivery is claimed by one instance.
    func claimDue(at date: Date, lease: Duration, limit: Int) async throws -> [ClaimedWebhookDelivery]
    /// Records the try and ends or reschedules the delivery, while the claim holds; false when it was lost.
    @discardableResult
    func record(
        _ claimed: ClaimedWebhookDelivery, _ outcome: WebhookDeliveryOutcome, attempt: WebhookDelivery.Attempt
    ) async throws -> Bool
    /// Sends a finished delivery again, from its first try of the schedule; false when there is no finished one.
    func replay(_ id: Int64, at date: Date) async throws -> Bool
    /// The newest deliveries with their attempts: of one endpoint, in one status, at most `limit`.
    func deliveries(endpoint: UUID?, status: String?, limit: Int) async throws -> [WebhookDelivery]
    /// Deletes up to `limit` events written before `date` whose deliveries have all finished, with their deliveries
    /// and attempts; returns how many events.
    func purge(writtenBefore date: Date, limit: Int) async throws -> Int
}
