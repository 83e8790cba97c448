import Foundation

/// A fitness challenge as a request describes it, before it is checked.
public struct FitnessChallengeDraft: Sendable {
    /// 1 to 100 Unicode scalars (what JSON Schema's `maxLength` counts), not all white space, with no control
    /// characters; kept as sent.
    public var name: String?
    /// One of `FitnessChallenge.types`.
    public var type: HealthSampleType?
    /// More than 0, in the type's canonical unit.
    public var goal: Double?
    /// The first day counted.
    public var startDate: LocalDate?
    /// The last day counted: on or after `startDate`, and at most 366 days in all.
    public var endDate: LocalDate?
    /// Who may find it; `private` when absent.
    public var visibility: FitnessChallenge.Visibility?
    /// Whether user-entered samples count; false when absent.
    public var includesUserEntered: Bool?
    /// Whether only verified progress counts (`FitnessChallenge.Verification`); false when absent.
    public var verified: Bool? = nil
    /// For a verified challenge, the kinds of device whose samples count; every kind when absent.
    public var verifiedSources: [DeviceClass]? = nil

    /// The most days a window may hold.
    public static let maximumDays = 366
    /// The longest name, in characters (`TextRule.name`).
    public static let maximumNameLength = TextRule.name.length.upperBound

    /// A draft with these fields.
    public init(
        name: String?, type: HealthSampleType?, goal: Double?, startDate: LocalDate?, endDate: LocalDate?,
        visibility: FitnessChallenge.Visibility?, includesUserEntered: Bool?
    ) {
        self.name = name
        self.type = type
        self.goal = goal
        self.startDate = startDate
        self.endDate = endDate
        self.visibility = visibility
        self.includesUserEntered = includesUserEntered
    }

    /// The challenge it describes, created by `creator` at `now`; an `InvalidInput` naming the first field that is
    /// wrong. The goal is at most what the plausibility table lets the window's days hold, and the window
    /// starts no earlier than data may be synced for and at most `maximumDays` ahead.
    func challenge(by creator: AccountID, at now: Date, within plausibility: HealthPlausibility) throws
        -> FitnessChallenge
    {
        guard let name else { throw InvalidInput("name", .text(.name)) }
        try TextRule.name.check(name, field: "name")
        guard let type, FitnessChallenge.types.contains(type) else { throw Self.unknownType }
        guard let goal, goal.isFinite, goal > 0 else { throw InvalidInput("goal", .above(0)) }
        // An absent day is refused in the words for one that is not a day.
        guard let first = startDate else { throw InvalidInput("startDate", .day) }
        guard let last = endDate else { throw InvalidInput("endDate", .day) }
        guard let window = ChallengeWindow(first: first, last: last) else {
            throw InvalidInput("endDate", .notBefore("startDate"))
        }
        guard last.dayNumber - first.dayNumber < Self.maximumDays else {
            throw InvalidInput("endDate", .described("A fitness challenge lasts at most \(Self.maximumDays) days"))
        }
        let today = LocalDate(at: now, in: .gmt)
        guard
            plausibility.allows(day: first, today: today)
                || (first > today && first <= today.adding(days: Self.maximumDays))
        else {
            let past = HealthPlausibility.describe(seconds: plausibility.oldestStart)
            throw InvalidInput("startDate", .form("within the last \(past) or the next \(Self.maximumDays) days"))
        }
        let days = last.dayNumber - first.dayNumber + 1
        try ImplausibleHealthData.check(plausibility.implausibility(ofGoal: goal, of: type, overDays: days))
        return FitnessChallenge(
            id: .random(), creatorAccountId: creator, name: name, type: type, goal: goal, window: window,
            visibility: visibility ?? .private, includesUserEntered: includesUserEntered ?? false,
            verification: try verification(), createdAt: now)
    }

    /// The verification asked for, if any: never with user-entered samples, and from at least one kind of device.
    private func verification() throws(InvalidInput) -> FitnessChallenge.Verification? {
        guard verified == true else {
            guard verifiedSources == nil else {
                throw InvalidInput("verifiedSources", .described("verifiedSources applies only when verified is true"))
            }
            return nil
        }
        guard includesUserEntered != true else {
            throw InvalidInput(
                "includesUserEntered", .described("A verified challenge never counts samples a person typed in"))
        }
        guard let sources = verifiedSources else { return .init(sources: Set(DeviceClass.allCases)) }
        guard !sources.isEmpty else { throw InvalidInput("verifiedSources", .required) }
        return .init(sources: Set(sources))
    }

    /// A `type` that is not one of `FitnessChallenge.types`, named or not.
    static let unknownType = InvalidInput("type", .oneOf(FitnessChallenge.types.map(\.rawValue)))
}
