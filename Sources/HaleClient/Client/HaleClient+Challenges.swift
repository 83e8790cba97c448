import Foundation

/// Seed 004's fitness challenges.
extension HaleClient {
    /// What a new challenge is.
    public struct NewFitnessChallenge: Sendable, Hashable, Encodable {
        /// Its name.
        public var name: String
        /// What it counts: `steps`, `distance`, `calories` or `active_minutes`.
        public var type: String
        /// The total to reach, in the type's canonical unit.
        public var goal: Double
        /// Its first day, `YYYY-MM-DD`.
        public var startDate: String
        /// Its last day, `YYYY-MM-DD`.
        public var endDate: String
        /// `public` or `private`.
        public var visibility: String
        /// Whether samples a person typed in count.
        public var includesUserEntered: Bool
        /// Whether only samples from attested writes, recorded by a device, count; never with
        /// `includesUserEntered`.
        public var verified: Bool
        /// The kinds of device a verified challenge counts (`watch`, `phone`, `other`); nil counts every kind.
        public var verifiedSources: [String]?

        /// A challenge.
        public init(
            name: String, type: String, goal: Double, startDate: String, endDate: String,
            visibility: String = "public", includesUserEntered: Bool = false, verified: Bool = false,
            verifiedSources: [String]? = nil
        ) {
            self.name = name
            self.type = type
            self.goal = goal
            self.startDate = startDate
            self.endDate = endDate
            self.visibility = visibility
            self.includesUserEntered = includesUserEntered
            self.verified = verified
            self.verifiedSources = verifiedSources
        }
    }

    /// Creates a challenge, which the creator joins.
    public func createChallenge(_ challenge: NewFitnessChallenge) async throws -> FitnessChallenge {
        let answer: ChallengeAnswer = try await send("POST", "api/v1/challenges", json: challenge, as: .session)
        return answer.challenge
    }

    /// The challenges the account may see.
    public func challenges() async throws -> [FitnessChallenge] {
        let answer: ChallengesAnswer = try await send("GET", "api/v1/challenges", as: .session)
        return answer.challenges
    }

    /// One challenge, with the account's progress if it joined.
    public func challenge(_ id: String) async throws -> FitnessChallenge {
        let answer: ChallengeAnswer = try await send("GET", "api/v1/challenges/\(id)", as: .session)
        return answer.challenge
    }

    /// Joins a challenge.
    @discardableResult
    public func joinChallenge(_ id: String) async throws -> FitnessChallenge {
        let answer: ChallengeAnswer = try await send(
            "POST", "api/v1/challenges/\(id)/join", json: EmptyBody(), as: .session)
        return answer.challenge
    }

    /// Leaves a challenge.
    @discardableResult
    public func leaveChallenge(_ id: String) async throws -> FitnessChallenge {
        let answer: ChallengeAnswer = try await send(
            "POST", "api/v1/challenges/\(id)/leave", json: EmptyBody(), as: .session)
        return answer.challenge
    }

    /// The members' standings, best first.
    public func leaderboard(_ id: String) async throws -> [ChallengeStanding] {
        let answer: LeaderboardAnswer = try await send(
            "GET", "api/v1/challenges/\(id)/leaderboard", as: .session)
        return answer.leaderboard
    }

    private struct ChallengeAnswer: Decodable { let challenge: FitnessChallenge }
    private struct ChallengesAnswer: Decodable { let challenges: [FitnessChallenge] }
    private struct LeaderboardAnswer: Decodable { let leaderboard: [ChallengeStanding] }
}
