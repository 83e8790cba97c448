import Foundation

/// Apple refresh tokens to revoke. Several instances may work the queue: a claim moves a row's next attempt forward
/// atomically, so one instance at a time tries it.
protocol AppleRevocationRepository: Sendable {
    /// Queues a token.
    func enqueue(_ revocation: AppleTokenRevocation) async throws
    /// Claims up to `limit` rows due at `date`, pushing their next attempt to `lease`.
    func claimDue(at date: Date, lease: Date, limit: Int) async throws -> [AppleTokenRevocation]
    /// Removes a revoked token.
    func complete(_ id: UUID) async throws
    /// Records a failed attempt and when to try again.
    func retry(_ id: UUID, at next: Date, error: String) async throws
    /// How many tokens wait.
    func pendingCount() async throws -> Int
}
