import Foundation

/// A fitness challenge.
public struct FitnessChallenge: Sendable, Hashable, Decodable {
    /// Its id.
    public let id: String
    /// Its name.
    public let name: String
    /// What it counts.
    public let type: String
    /// The total to reach.
    public let goal: Double
    /// Its first day.
    public let startDate: String
    /// Its last day.
    public let endDate: String
    /// `public` or `private`.
    public let visibility: String
    /// Whether typed-in samples count.
    public let includesUserEntered: Bool
    /// How many accounts joined.
    public let memberCount: Int
    /// Whether this account joined.
    public let joined: Bool
    /// This account's total so far, if it joined.
    public let progress: Double?
    /// When it was created.
    public let createdAt: Date
}

/// A member's place in a challenge.
public struct ChallengeStanding: Sendable, Hashable, Decodable {
    /// 1 for the leader.
    public let rank: Int
    /// The member.
    public let accountId: String
    /// Their total.
    public let progress: Double
    /// Whether they reached the goal.
    public let completed: Bool
}
