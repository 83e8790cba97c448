import Foundation

/// Stores App Attest keys. Every call is scoped by the account.
protocol AppAttestKeyRepository: Sendable {
    /// Stores a newly attested key and deletes the account's oldest beyond the newest `kept`; returns false when
    /// that key id is registered already.
    func insert(_ key: AppAttestKey, keepingNewest kept: Int) async throws -> Bool
    /// The account's keys, newest first, at most `limit`.
    func keys(of account: AccountID, limit: Int) async throws -> [AppAttestKey]
    /// Moves a key's counter from `expected` to `counter`; false when another request moved it first, so that of
    /// two submissions with one assertion only one counts.
    func advance(_ key: UUID, from expected: Int64, to counter: Int64, at date: Date) async throws -> Bool
}
