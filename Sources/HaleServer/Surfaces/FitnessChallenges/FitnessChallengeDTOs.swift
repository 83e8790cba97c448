import Vapor

/// `POST /api/v1/challenges`.
struct CreateFitnessChallengeRequest: StrictRequestBody {
    static let allowedFields: Set<String> = [
        "name", "type", "goal", "startDate", "endDate", "visibility", "includesUserEntered", "verified",
        "verifiedSources",
    ]
    let name: String?
    let type: String?
    let goal: Double?
    let startDate: String?
    let endDate: String?
    let visibility: String?
    let includesUserEntered: Bool?
    let verified: Bool?
    let verifiedSources: [String]?

    /// The draft, with its type, days and visibility read; one that is absent is left to the draft's checks.
    func draft() throws(InvalidInput) -> FitnessChallengeDraft {
        var draft = FitnessChallengeDraft(
            name: name, type: try Self.sampleType(type), goal: goal,
            startDate: try Self.day(startDate, field: "startDate"), endDate: try Self.day(endDate, field: "endDate"),
            visibility: try Self.challengeVisibility(visibility), includesUserEntered: includesUserEntered)
        draft.verified = verified
        draft.verifiedSources = try verifiedSources.map(Self.deviceClasses)
        return draft
    }

    /// `watch`, `phone` or `other`, each at most once.
    private static func deviceClasses(_ names: [String]) throws(InvalidInput) -> [DeviceClass] {
        var classes: [DeviceClass] = []
        for (index, name) in names.enumerated() {
            guard let deviceClass = DeviceClass(rawValue: name), !classes.contains(deviceClass) else {
                throw InvalidInput(
                    "verifiedSources[\(index)]", .form("one of watch, phone or other, each named once"))
            }
            classes.append(deviceClass)
        }
        return classes
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
    let verified: Bool
    /// A verified challenge's kinds of device; absent for another.
    let verifiedSources: [String]?
    let memberCount: Int
    let joined: Bool
    @Nullable var progress: Double?
    /// In a verified challenge the account has joined, what its progress left out and why; absent otherwise.
    let excluded: FitnessChallengeExclusionsResponse?
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
        verified = challenge.verification != nil
        verifiedSources = challenge.verification.map { verification in
            DeviceClass.allCases.filter(verification.sources.contains).map(\.rawValue)
        }
        excluded = overview.exclusions.map(FitnessChallengeExclusionsResponse.init)
        memberCount = overview.memberCount
        joined = overview.joined
        progress = overview.progress
        createdAt = ISO8601.string(challenge.createdAt)
    }

    /// Writes `progress` as `null` rather than leaving it out.
}

/// What a verified challenge left out of the account's progress.
struct FitnessChallengeExclusionsResponse: Content {
    let total: Int
    let userEntered: Int
    let unattested: Int
    let sourceNotAllowed: Int
    let implausible: Int
    let implausibleDays: [Day]

    /// A day left out, and why.
    struct Day: Content {
        let date: String
        let reason: String
    }

    init(_ exclusions: FitnessChallengeExclusions) {
        total = exclusions.total
        userEntered = exclusions.userEntered
        unattested = exclusions.unattested
        sourceNotAllowed = exclusions.sourceNotAllowed
        implausible = exclusions.implausible
        implausibleDays = exclusions.implausibleDays.map { Day(date: $0.day.description, reason: $0.reason) }
    }
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
    let verified: Bool

    init(_ standing: FitnessChallengeStanding) {
        rank = standing.rank
        accountId = standing.accountId.description
        progress = standing.progress
        completed = standing.completed
        verified = standing.verified
    }
}

/// A challenge's leaderboard.
struct FitnessChallengeLeaderboardResponse: Content {
    var success = true
    let leaderboard: [FitnessChallengeStandingResponse]
}
