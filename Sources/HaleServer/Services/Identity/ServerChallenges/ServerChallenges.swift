import Foundation

/// Issues single-use values and consumes each exactly once, on one instance or many.
public struct ServerChallenges: Sendable {
    /// A challenge as issued: the plaintext value for the client, and what was stored.
    public struct Issued: Sendable {
        /// The value to hand to the client. Only its hash is stored.
        public let value: String
        /// The stored challenge.
        public let challenge: ServerChallenge
    }

    let repository: any ServerChallengeRepository
    let clock: HaleClock

    /// Issues a challenge of `kind` bound to `binding`, valid for `lifetime`. The value is 256 random bits,
    /// base64url-encoded, unless the caller supplies one.
    public func issue(
        kind: String, binding: ChallengeBinding, lifetime: Duration, context: String? = nil, value: String? = nil
    ) async throws -> Issued {
        let value = value ?? OpaqueToken.generate()
        let now = clock.now()
        let challenge = ServerChallenge(
            id: .random(), kind: kind, valueHash: OpaqueToken.hash(value),
            accountId: binding.accountId, deviceId: binding.deviceId, sessionId: binding.sessionId,
            context: context, createdAt: now, expiresAt: now.addingTimeInterval(lifetime.timeInterval),
            consumedAt: nil)
        try await repository.insert(challenge)
        return Issued(value: value, challenge: challenge)
    }

    /// Consumes the challenge with this value, atomically: of any number of racing calls, exactly one returns it.
    public func consume(kind: String, value: String, binding: ChallengeBinding = .none) async throws
        -> ServerChallenge
    {
        let hash = OpaqueToken.hash(value)
        let now = clock.now()
        if let consumed = try await repository.consume(kind: kind, valueHash: hash, binding: binding, at: now) {
            return consumed
        }
        throw try await rejection(kind: kind, hash: hash, binding: binding, at: now)
    }

    /// Consumes like `consume(kind:value:binding:)`, but answers every rejection with the one `INVALID_CHALLENGE`
    /// error, for surfaces whose clients are not told why.
    public func consumeOrInvalid(kind: String, value: String, binding: ChallengeBinding = .none) async throws
        -> ServerChallenge
    {
        do {
            return try await consume(kind: kind, value: value, binding: binding)
        } catch is ChallengeRejection {
            throw HaleError.invalidChallenge
        }
    }

    /// Deletes challenges that expired more than `age` ago.
    public func purge(olderThan age: Duration) async throws -> Int {
        try await repository.deleteExpired(before: clock.now().addingTimeInterval(-age.timeInterval))
    }

    private func rejection(kind: String, hash: String, binding: ChallengeBinding, at now: Date) async throws
        -> ChallengeRejection
    {
        guard let found = try await repository.find(valueHash: hash), found.kind == kind else { return .unknown }
        if !Self.matches(binding, found) { return .boundElsewhere }
        if found.consumedAt != nil { return .alreadyUsed }
        if found.expiresAt <= now { return .expired }
        return .boundElsewhere
    }

    /// Whether every field the consumer set equals the challenge's; checked first, so a consumer bound elsewhere
    /// learns nothing about the challenge's state.
    private static func matches(_ binding: ChallengeBinding, _ challenge: ServerChallenge) -> Bool {
        (binding.accountId.map { $0 == challenge.accountId } ?? true)
            && (binding.deviceId.map { $0 == challenge.deviceId } ?? true)
            && (binding.sessionId.map { $0 == challenge.sessionId } ?? true)
    }
}
