import Foundation

/// Stores access-token signing keys.
protocol SigningKeyRepository: Sendable {
    /// Every key that is still signing or was retired after `date`.
    func keys(retiredAfter date: Date) async throws -> [SigningKeyRecord]
    /// Inserts `key` and retires every other active key, in one transaction.
    func activate(_ key: SigningKeyRecord) async throws
}
