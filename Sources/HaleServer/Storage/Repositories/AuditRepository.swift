import Foundation

/// Appends to and reads the audit trail.
protocol AuditRepository: Sendable {
    /// Appends an event built by `make` from the next sequence number and the last event's hash, serialized with
    /// every other append so the chain never forks. The alert's push messages are written in the same transaction,
    /// keyed by the event's sequence.
    func append(
        alert: SecurityAlertFanOut?,
        _ make: @escaping @Sendable (_ sequence: Int64, _ previousHash: String) -> AuditEvent
    ) async throws -> AuditEvent
    /// The account's events, newest first, at most `limit`.
    func events(of account: AccountID, limit: Int) async throws -> [AuditEvent]
    /// Every event in order from `sequence`, at most `limit`: for checking the chain in pages.
    func events(from sequence: Int64, limit: Int) async throws -> [AuditEvent]
}
