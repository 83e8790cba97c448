import Foundation

/// Stores access-token signing keys.
protocol SigningKeyRepository: Sendable {
    /// Every key created after `date`, newest activation first.
    func keys(createdAfter date: Date) async throws -> [SigningKeyRecord]
    /// Inserts a key.
    func insert(_ key: SigningKeyRecord) async throws
}
