import Foundation

/// A fitness challenge (seed 004's FitChallenge): who reaches `goal` of one cumulative type over a window of days.
public struct FitnessChallenge: Sendable, Equatable {
    /// Who may find a challenge.
    public enum Visibility: String, Sendable, CaseIterable {
        /// Listed to everyone, and joinable by anyone.
        case `public`
        /// Never listed: found and joined only by its id, as an invite link carries it.
        case `private`
    }

    /// The types a challenge can count: the cumulative ones a person works towards.
    public static let types: [HealthSampleType] = [.steps, .distance, .calories, .activeMinutes]

    /// The challenge.
    public let id: FitnessChallengeID
    /// The account that created it; nil once that account is deleted, when the challenge stays for its other
    /// members.
    public let creatorAccountId: AccountID?
    /// Its name, 1 to 100 characters.
    public let name: String
    /// What it counts.
    public let type: HealthSampleType
    /// The total to reach, in the type's canonical unit.
    public let goal: Double
    /// The local days it counts.
    public let window: ChallengeWindow
    /// Who may find it.
    public let visibility: Visibility
    /// Whether samples a person typed in count; by default only what devices recorded does.
    public let includesUserEntered: Bool
    /// When it was created.
    public let createdAt: Date
}

/// A challenge as one account sees it: how many take part, and the account's own progress.
public struct FitnessChallengeOverview: Sendable, Equatable {
    /// The challenge.
    public let challenge: FitnessChallenge
    /// Its active members.
    public let memberCount: Int
    /// The account's progress, or `nil` when it is not an active member.
    public let progress: Double?

    /// Whether the account is an active member.
    public var joined: Bool { progress != nil }
}

/// One active member's place on a challenge's leaderboard.
public struct FitnessChallengeStanding: Sendable, Equatable {
    /// 1 for the most progress; ties go to whoever joined first.
    public let rank: Int
    /// The member.
    public let accountId: AccountID
    /// Their total over the window.
    public let progress: Double
    /// Whether they reached the goal.
    public let completed: Bool
}
