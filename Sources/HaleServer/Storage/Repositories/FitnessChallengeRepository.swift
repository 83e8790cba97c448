import Foundation

/// Stores fitness challenges and their members. Progress is written here on joining, and by
/// `HealthSampleRepository.updateFitnessChallengeProgress` whenever rollups change.
protocol FitnessChallengeRepository: Sendable {
    /// Stores a new challenge by `creator`, who becomes its first member.
    func create(_ challenge: FitnessChallenge, by creator: AccountID) async throws
    /// How many challenges `account` created whose last day is `day` or later.
    func createdCount(by account: AccountID, endingOnOrAfter day: LocalDate) async throws -> Int
    /// Whether the challenge exists.
    func exists(_ id: FitnessChallengeID) async throws -> Bool
    /// The challenge as `account` sees it.
    func overview(of id: FitnessChallengeID, for account: AccountID) async throws -> FitnessChallengeOverview?
    /// The challenges `account` is an active member of, newest first.
    func joined(by account: AccountID) async throws -> [FitnessChallengeOverview]
    /// Public challenges, newest first, as `account` sees them.
    func publicChallenges(for account: AccountID, limit: Int) async throws -> [FitnessChallengeOverview]
    /// Makes `account` an active member, computing its progress; joining again while a member changes nothing.
    func join(_ id: FitnessChallengeID, account: AccountID, at date: Date) async throws
    /// Ends `account`'s membership, if active, and clears its progress: a left membership is never shown, and
    /// derived health data should not outlive its use (rejoining recomputes it).
    func leave(_ id: FitnessChallengeID, account: AccountID, at date: Date) async throws
    /// The active members by progress, most first, then by who joined first.
    func standings(of challenge: FitnessChallenge, limit: Int) async throws -> [FitnessChallengeStanding]
    /// What a verified challenge left out of `account`'s progress, and why; nil for another challenge.
    func exclusions(of account: AccountID, in challenge: FitnessChallenge) async throws -> FitnessChallengeExclusions?
    /// Recomputes every active member's progress, verified mark and excluded samples from their rollups.
    func recomputeProgress(of challenge: FitnessChallengeID, at date: Date) async throws
}
