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
    /// For a verified challenge, what counts; nil for one that counts every device-recorded sample.
    public var verification: Verification? = nil
    /// When it was created.
    public let createdAt: Date

    /// What a verified challenge counts: only samples that attested writes brought (App Attest or Play Integrity,
    /// over the write's body), never one a person typed in, only from the kinds of device its creator chose, and
    /// only on days whose steps a person could have taken (`SustainedStepRate`, and at least 25 cm of distance a
    /// step where a device recorded both). Each kind of device is rolled up apart, and a day counts the most any one
    /// allowed kind recorded: a watch and a phone see the same walk.
    public struct Verification: Sendable, Equatable {
        /// The kinds of device whose samples count.
        public let sources: Set<DeviceClass>

        /// The kinds, as stored: their names in `DeviceClass` order, comma-separated.
        var stored: String {
            DeviceClass.allCases.filter(sources.contains).map(\.rawValue).joined(separator: ",")
        }

        /// The verification `stored` describes; nil for none, or for text that names no kind.
        init?(stored: String?) {
            guard let stored else { return nil }
            let sources = Set(stored.split(separator: ",").compactMap { DeviceClass(rawValue: String($0)) })
            guard !sources.isEmpty else { return nil }
            self.sources = sources
        }

        /// A verification counting `sources`.
        public init(sources: Set<DeviceClass>) {
            self.sources = sources
        }
    }
}

/// A challenge as one account sees it: how many take part, and the account's own progress.
public struct FitnessChallengeOverview: Sendable, Equatable {
    /// The challenge.
    public let challenge: FitnessChallenge
    /// Its active members.
    public let memberCount: Int
    /// The account's progress, or `nil` when it is not an active member.
    public let progress: Double?
    /// In a verified challenge the account is an active member of, what was left out of its progress.
    public var exclusions: FitnessChallengeExclusions? = nil

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
    /// Whether their progress is verified: in a verified challenge, no day of theirs in the window was implausible;
    /// in another, every sample it counts came from an attested write, and no day was implausible.
    public var verified = false
}

/// What a verified challenge left out of one member's progress, and why: shown to that member.
public struct FitnessChallengeExclusions: Sendable, Equatable {
    /// Samples a person typed in.
    public var userEntered = 0
    /// Samples a device recorded that no attested write brought.
    public var unattested = 0
    /// Verified samples from a kind of device the challenge does not count.
    public var sourceNotAllowed = 0
    /// Verified samples on the days below.
    public var implausible = 0
    /// The days left out as implausible, with why.
    public var implausibleDays: [ImplausibleDay] = []

    /// Every sample left out.
    public var total: Int { userEntered + unattested + sourceNotAllowed + implausible }

    /// A day left out as implausible.
    public struct ImplausibleDay: Sendable, Equatable {
        /// The member's local day.
        public let day: LocalDate
        /// Why, in words: `SustainedStepRate.Limit.reason`, or too short a stride.
        public let reason: String
    }
}
