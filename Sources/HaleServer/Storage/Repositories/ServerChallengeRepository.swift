import Foundation

/// Stores server challenges. Consumption is one atomic statement, so racing consumers can never both win.
protocol ServerChallengeRepository: Sendable {
    /// Inserts an issued challenge.
    func insert(_ challenge: ServerChallenge) async throws
    /// Marks the unconsumed, unexpired challenge of this kind and hash consumed at `date`, if its binding matches;
    /// returns it, or `nil` when nothing matched.
    func consume(kind: String, valueHash: String, binding: ChallengeBinding, at date: Date) async throws
        -> ServerChallenge?
    /// The challenge with this value hash, consumed or not.
    func find(valueHash: String) async throws -> ServerChallenge?
    /// Deletes challenges that expired before `date`; returns how many.
    func deleteExpired(before date: Date) async throws -> Int
}
