import Foundation

/// An audit event ready to append, with the security alert it raises. Repositories that record a change append it
/// inside the change's own transaction, so the change, its audit event and its push messages commit together.
struct AuditAppend: Sendable {
    /// The account the event concerns; the repository reads its pseudonym's key, or makes it, in the append's
    /// transaction.
    let account: AccountID
    /// The alert's fan-out, when the event raises one.
    let alert: SecurityAlertFanOut?
    /// The pseudonym to record, when the account's key may be gone already; otherwise the repository derives it.
    var pseudonym: String? = nil
    /// The events the app's backend hears of it, written with it (`WebhookEvent.reporting`).
    var reported: [WebhookEvent] = []
    /// Builds the event from the next sequence number, the last event's hash and the account's pseudonym.
    let make: @Sendable (_ sequence: Int64, _ previousHash: String, _ accountPseudonym: String) -> AuditEvent
}

/// Appends to and reads the audit trail.
protocol AuditRepository: Sendable {
    /// Appends an event in a transaction of its own, serialized with every other append so the chain never forks.
    /// The alert's push messages are written in the same transaction, keyed by the event's sequence.
    func append(_ append: AuditAppend) async throws -> AuditEvent
    /// The account's events, newest first, at most `limit`: none once its pseudonym's key is gone.
    func events(of account: AccountID, limit: Int) async throws -> [AuditEvent]
    /// The account's events after `sequence`, oldest first, at most `limit`: for exporting them in pages.
    func events(of account: AccountID, after sequence: Int64, limit: Int) async throws -> [AuditEvent]
    /// The account's pseudonym under its key; nil when it has no key, before its first event or after its deletion.
    func pseudonym(of account: AccountID) async throws -> String?
    /// The newest event of the trail.
    func newest() async throws -> AuditEvent?
    /// Every event in order from `sequence`, at most `limit`: for checking the chain in pages.
    func events(from sequence: Int64, limit: Int) async throws -> [AuditEvent]
}
