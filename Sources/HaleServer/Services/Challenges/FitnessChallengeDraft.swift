import Foundation

/// A fitness challenge as a request describes it, before it is checked.
public struct FitnessChallengeDraft: Sendable {
    /// 1 to 100 Unicode scalars (what JSON Schema's `maxLength` counts), not all white space, with no control
    /// characters; kept as sent.
    public var name: String?
    /// `steps`, `distance`, `calories` or `active_minutes`, or another name `HealthSampleType(parsing:)` reads.
    public var type: String?
    /// More than 0, in the type's canonical unit.
    public var goal: Double?
    /// `YYYY-MM-DD`, the first day counted.
    public var startDate: String?
    /// `YYYY-MM-DD`, the last day counted: on or after `startDate`, and at most 366 days in all.
    public var endDate: String?
    /// `public` or `private`; `private` when absent.
    public var visibility: String?
    /// Whether user-entered samples count; false when absent.
    public var includesUserEntered: Bool?

    /// The most days a window may hold.
    public static let maximumDays = 366
    /// The longest name, in characters (`TextRule.name`).
    public static let maximumNameLength = TextRule.name.length.upperBound

    /// A draft with these fields.
    public init(
        name: String?, type: String?, goal: Double?, startDate: String?, endDate: String?, visibility: String?,
        includesUserEntered: Bool?
    ) {
        self.name = name
        self.type = type
        self.goal = goal
        self.startDate = startDate
        self.endDate = endDate
        self.visibility = visibility
        self.includesUserEntered = includesUserEntered
    }

    /// The challenge it describes, created by `creator` at `now`; a 400 `INVALID_REQUEST` naming the first field
    /// that is wrong. The goal is at most what the plausibility table lets the window's days hold, and the window
    /// starts no earlier than data may be synced for and at most `maximumDays` ahead.
    func challenge(by creator: AccountID, at now: Date, within plausibility: HealthPlausibility) throws
        -> FitnessChallenge
    {
        guard let name, TextRule.name.allows(name) else {
            throw HaleError.invalidRequest(TextRule.name.message(field: "name"))
        }
        guard let type = type.flatMap(HealthSampleType.init(parsing:)), FitnessChallenge.types.contains(type) else {
            throw HaleError.invalidRequest("type must be one of: \(Self.typeNames)")
        }
        guard let goal, goal.isFinite, goal > 0 else { throw HaleError.invalidRequest("goal must be a number above 0") }
        let first = try Self.day(startDate, field: "startDate")
        let last = try Self.day(endDate, field: "endDate")
        guard let window = ChallengeWindow(first: first, last: last) else {
            throw HaleError.invalidRequest("endDate must not be before startDate")
        }
        guard last.dayNumber - first.dayNumber < Self.maximumDays else {
            throw HaleError.invalidRequest("A fitness challenge lasts at most \(Self.maximumDays) days")
        }
        let today = LocalDate(at: now, in: .gmt)
        guard
            plausibility.allows(day: first, today: today)
                || (first > today && first <= today.adding(days: Self.maximumDays))
        else {
            throw HaleError.invalidRequest(
                "startDate must be within the last \(HealthPlausibility.describe(seconds: plausibility.oldestStart)) or the next \(Self.maximumDays) days"
            )
        }
        let days = last.dayNumber - first.dayNumber + 1
        try ImplausibleHealthData.check(plausibility.implausibility(ofGoal: goal, of: type, overDays: days))
        guard let visibility = FitnessChallenge.Visibility(rawValue: visibility ?? "private") else {
            throw HaleError.invalidRequest("visibility must be public or private")
        }
        return FitnessChallenge(
            id: .random(), creatorAccountId: creator, name: name, type: type, goal: goal, window: window,
            visibility: visibility, includesUserEntered: includesUserEntered ?? false, createdAt: now)
    }

    private static let typeNames = FitnessChallenge.types.map(\.rawValue).joined(separator: ", ")

    private static func day(_ text: String?, field: String) throws -> LocalDate {
        guard let day = text.flatMap(LocalDate.init) else {
            throw HaleError.invalidRequest("\(field) must be a date as YYYY-MM-DD")
        }
        return day
    }
}
