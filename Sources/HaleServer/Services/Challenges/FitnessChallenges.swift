import Foundation

/// Fitness challenges (seed 004's FitChallenge): create, join, leave, list and rank.
///
/// A public challenge is listed to everyone; a private one is found only by its id, as an invite link carries it,
/// and its leaderboard is for its members. Progress is each member's rollups summed over the window, recomputed in
/// the transaction that changes them, so it never counts a sample twice.
public struct FitnessChallenges: Sendable {
    let repository: any FitnessChallengeRepository
    let plausibility: HealthPlausibility
    /// The most challenges one account may have created that have not ended (`accountLimits.fitnessChallenges`).
    let maximumOpenPerCreator: Int
    let clock: HaleClock

    /// The most challenges `scope=public` lists, and the most members a leaderboard ranks.
    public static let pageSize = 100

    /// Which challenges a list holds.
    public enum Scope: String, Sendable {
        /// The challenges the account is an active member of.
        case joined
        /// Public challenges, newest first.
        case `public`
    }

    /// Creates a challenge from a request's draft; its creator joins it.
    public func create(_ draft: FitnessChallengeDraft, by account: AccountID) async throws -> FitnessChallengeOverview {
        let now = clock.now()
        let challenge = try draft.challenge(by: account, at: now, within: plausibility)
        // A challenge has ended once its last day is over everywhere: UTC-12 is a day behind UTC.
        let open = try await repository.createdCount(
            by: account, endingOnOrAfter: LocalDate(at: now, in: .gmt).adding(days: -1))
        guard open < maximumOpenPerCreator else {
            throw HaleError.limitReached(
                "This account has created \(open) fitness challenges that have not ended, the most it may have (\(maximumOpenPerCreator)); create another once one ends."
            )
        }
        try await repository.create(challenge, by: account)
        return try await overview(of: challenge.id, for: account)
    }

    /// The challenges in `scope`, as the account sees them.
    public func list(scope: Scope = .joined, for account: AccountID) async throws -> [FitnessChallengeOverview] {
        switch scope {
        case .joined: try await repository.joined(by: account)
        case .public: try await repository.publicChallenges(for: account, limit: Self.pageSize)
        }
    }

    /// One challenge by its id, public or private: knowing a private challenge's id is the invitation.
    public func challenge(_ id: String, for account: AccountID) async throws -> FitnessChallengeOverview {
        try await overview(of: try Self.id(id), for: account)
    }

    /// Joins the account to the challenge, or rejoins it after leaving; joining while a member changes nothing.
    public func join(_ id: String, account: AccountID) async throws -> FitnessChallengeOverview {
        let id = try Self.id(id)
        try await requireExists(id)
        try await repository.join(id, account: account, at: clock.now())
        return try await overview(of: id, for: account)
    }

    /// Takes the account out of the challenge; leaving when not a member changes nothing.
    public func leave(_ id: String, account: AccountID) async throws -> FitnessChallengeOverview {
        let id = try Self.id(id)
        try await requireExists(id)
        try await repository.leave(id, account: account, at: clock.now())
        return try await overview(of: id, for: account)
    }

    /// The challenge's first 100 active members by progress. A private challenge's leaderboard is a 404 to anyone
    /// but its active members.
    public func leaderboard(_ id: String, for account: AccountID) async throws -> [FitnessChallengeStanding] {
        let overview = try await overview(of: try Self.id(id), for: account)
        guard overview.challenge.visibility == .public || overview.joined else { throw Self.notFound }
        return try await repository.standings(of: overview.challenge, limit: Self.pageSize)
    }

    /// Recomputes every active member's progress in the challenge from their daily totals (verified ones for a
    /// verified challenge), as each sync recomputes its own account's: after an upgrade changes how progress is
    /// counted, say.
    public func recompute(_ id: String) async throws {
        let id = try Self.id(id)
        try await requireExists(id)
        try await repository.recomputeProgress(of: id, at: clock.now())
    }

    /// Throws `notFound` unless the challenge exists; reads no one's progress or exclusions.
    private func requireExists(_ id: FitnessChallengeID) async throws {
        guard try await repository.exists(id) else { throw Self.notFound }
    }

    /// The challenge as the account sees it; for a verified one it has joined, with what its progress left out.
    private func overview(of id: FitnessChallengeID, for account: AccountID) async throws -> FitnessChallengeOverview {
        guard var overview = try await repository.overview(of: id, for: account) else { throw Self.notFound }
        if overview.joined {
            overview.exclusions = try await repository.exclusions(of: account, in: overview.challenge)
        }
        return overview
    }

    private static let notFound = HaleError(.resourceNotFound, .notFound, message: "No such fitness challenge.")

    private static func id(_ text: String) throws -> FitnessChallengeID {
        guard let id = FitnessChallengeID(text) else { throw notFound }
        return id
    }
}
