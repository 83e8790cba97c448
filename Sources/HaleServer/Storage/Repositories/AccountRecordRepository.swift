import Foundation

/// Reads what an account's export holds, each record with only the columns it names.
protocol AccountRecordRepository: Sendable {
    /// The account's records, or nil when there is no such account.
    func records(of account: AccountID) async throws -> AccountRecords?
}
