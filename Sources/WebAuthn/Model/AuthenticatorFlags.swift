/// The flags byte of authenticator data (WebAuthn L3 §6.1).
public struct AuthenticatorFlags: OptionSet, Sendable, Hashable {
    /// The raw byte.
    public let rawValue: UInt8
    /// Creates flags from the raw byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// UP: the user was present.
    public static let userPresent = Self(rawValue: 1 << 0)
    /// UV: the user was verified (biometrics or PIN).
    public static let userVerified = Self(rawValue: 1 << 2)
    /// BE: the credential may be backed up (synced).
    public static let backupEligible = Self(rawValue: 1 << 3)
    /// BS: the credential is backed up now.
    public static let backupState = Self(rawValue: 1 << 4)
    /// AT: attested credential data follows.
    public static let attestedCredentialData = Self(rawValue: 1 << 6)
    /// ED: extension data follows.
    public static let extensionData = Self(rawValue: 1 << 7)
}
