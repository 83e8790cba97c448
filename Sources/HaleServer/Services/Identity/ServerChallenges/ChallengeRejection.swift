/// Why a challenge could not be consumed. Surfaces decide how much of this a client may see.
public enum ChallengeRejection: Error, Sendable, Equatable {
    /// No challenge of this kind has this value.
    case unknown
    /// It was consumed already.
    case alreadyUsed
    /// It expired before it was presented.
    case expired
    /// It belongs to another account, device or session.
    case boundElsewhere
}
