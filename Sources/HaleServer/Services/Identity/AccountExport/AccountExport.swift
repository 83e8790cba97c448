import Foundation

/// The right to data portability (GDPR art. 20): everything Hale holds about an account, read for one export.
///
/// The records are read at once, the audit events and the health samples page by page, so an account with years of
/// events and a million samples is exported in bounded memory.
struct AccountExport: Sendable {
    let records: any AccountRecordRepository
    let audit: AuditTrail
    let health: HealthDataRights
    let clock: HaleClock

    /// The account's records, or nil when there is no such account.
    func records(of account: AccountID) async throws -> AccountRecords? {
        try await records.records(of: account)
    }

    /// The account's audit events after `sequence`, oldest first.
    func auditEvents(of account: AccountID, after sequence: Int64, limit: Int) async throws -> [AuditEvent] {
        try await audit.events(of: account, after: sequence, limit: limit)
    }
}
