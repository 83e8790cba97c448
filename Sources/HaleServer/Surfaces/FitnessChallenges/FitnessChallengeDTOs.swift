import Vapor

/// `POST /api/v1/challenges`.
struct CreateFitnessChallengeRequest: StrictRequestBody {
    static let allowedFields: Set<String> = [
        "name", "type", "goal", "startDate", "endDate", "visibility", "includesUserEntered",
    ]
    let name: String?
    let type: String?
    let goal: Double?
    let startDate: String?
    let endDate: String?
    let visibility: String?
    let includesUserEntered: Bool?

    /// The draft, with its type, days and visibility read; one that is absent is left to the draft's checks.
    func draft() throws(InvalidInput) -> FitnessChallengeDraft {
        FitnessChallengeDraft(
            name: name, type: try Self.sampleType(type), goal: goal,
            startDate: try Self.day(startDate, field: "startDate"), endDate: try Self.day(endDate, field: "endDate"),
            visibility: try Self.challengeVisibility(visibility), includesUserEntered: includesUserEntered)
    }

    /// A type's raw value or another name `HealthSampleType(parsing:)` reads.
    private static func sampleType(_ name: String?) throws(InvalidInput) -> HealthSampleType? {
        guard let name else { return nil }
        guard let type = HealthSampleType(parsing: name) else { throw FitnessChallengeDraft.unknownType }
        return type
    }

    /// A `YYYY-MM-DD` day.
    private static func day(_ text: String?, field: String) throws(InvalidInput) -> LocalDate? {
        guard let text else { return nil }
        guard let day = LocalDate(text) else { throw InvalidInput(field, .day) }
        return day
    }

    /// `public` or `private`.
    private static func challengeVisibility(_ name: String?) throws(InvalidInput) -> FitnessChallenge.Visibility? {
        guard let name else { return nil }
        guard let visibility = FitnessChallenge.Visibility(rawValue: name) else {
            throw InvalidInput("visibility", .form("public or private"))
        }
        return visibility
    }
}

/// A challenge as the API answers it, to the account that asked.
struct FitnessChallengeResponse: Content {
    let id: String
    let name: String
    let type: String
    let goal: Double
    let startDate: String
    let endDate: String
    let visibility: String
    let includesUserEntered: Bool
    let memberCount: Int
    let joined: Bool
    @Nullable var progress: Double?
    let createdAt: String

    init(_ overview: FitnessChallengeOverview) {
        let challenge = overview.challenge
        id = challenge.id.description
        name = challenge.name
        type = challenge.type.rawValue
        goal = challenge.goal
        startDate = challenge.window.first.description
        endDate = challenge.window.last.description
        visibility = challenge.visibility.rawValue
        includesUserEntered = challenge.includesUserEntered
        memberCount = overview.memberCount
        joined = overview.joined
        progress = overview.progress
        createdAt = ISO8601.string(challenge.createdAt)
    }

    /// Writes `progress` as `null` rather than leaving it out.
}

/// One challenge.
struct FitnessChallengeEnvelope: Content {
    var success = true
    let challenge: FitnessChallengeResponse
}

/// A list of challenges.
struct FitnessChallengesResponse: Content {
    var success = true
    let challenges: [FitnessChallengeResponse]
}

/// One member's place on a leaderboard.
struct FitnessChallengeStandingResponse: Content {
    let rank: Int
    let accountId: String
    let progress: Double
    let completed: Bool

    init(_ standing: FitnessChallengeStanding) {
        rank = standing.rank
        accountId = standing.accountId.description
        progress = standing.progress
        completed = standing.completed
    }
}

/// A challenge's leaderboard.
struct FitnessChallengeLeaderboardResponse: Content {
    var success = true
    let leaderboard: [FitnessChallengeStandingResponse]
}
