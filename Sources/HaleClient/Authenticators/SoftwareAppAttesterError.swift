/// Why a `SoftwareAppAttester` could not be made or could not use a key.
public struct SoftwareAppAttesterError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Reason: String, Sendable {
        case unknownKey = "no key has this identifier"
        case invalidCredential = "the development credential is not an intermediate certificate for the given key"
        case invalidAppID = "the app id is not TEAMID.bundle.id"
    }

    private let reason: Reason

    /// `attestKey` or `generateAssertion` named a key this attester did not generate.
    public static let unknownKey = Self(reason: .unknownKey)
    /// The certificate is not DER, or certifies another key than the one given.
    public static let invalidCredential = Self(reason: .invalidCredential)
    /// The app id is not `TEAMID.bundle.id`.
    public static let invalidAppID = Self(reason: .invalidAppID)

    /// What went wrong.
    public var description: String { reason.rawValue }
}
