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
    /// Whether only samples from attested writes, recorded by a device, count.
    public let verified: Bool
    /// A verified challenge's kinds of device (`watch`, `phone`, `other`); nil for another.
    public let verifiedSources: [String]?
    /// How many accounts joined.
    public let memberCount: Int
    /// Whether this account joined.
    public let joined: Bool
    /// This account's total so far, if it joined.
    public let progress: Double?
    /// In a verified challenge this account joined, what its progress left out and why; nil otherwise.
    public let excluded: ChallengeExclusions?
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
    /// In a verified challenge, whether none of their days was left out as implausible; in another, whether every
    /// sample their progress counts came from an attested write as well.
    public let verified: Bool
}

/// What a verified challenge left out of the account's progress, counted in samples by reason.
public struct ChallengeExclusions: Sendable, Hashable, Decodable {
    /// All samples left out.
    public let total: Int
    /// Samples the person typed in.
    public let userEntered: Int
    /// Samples no attestation proved.
    public let unattested: Int
    /// Samples from a kind of device the challenge does not count.
    public let sourceNotAllowed: Int
    /// Samples of days left out as implausible.
    public let implausible: Int
    /// The days left out as implausible, and why.
    public let implausibleDays: [Day]

    /// A day left out.
    public struct Day: Sendable, Hashable, Decodable {
        /// The day, `YYYY-MM-DD`.
        public let date: String
        /// Why, in a sentence: a step rate no person keeps that long, or too short a stride.
        public let reason: String
    }
}
