/// Departures from WebAuthn's authenticator data layout that real authenticators produce and a caller may accept.
///
/// WebAuthn parsing accepts none of them. Apple App Attest needs both: its signatures cover every byte, so
/// tolerating them costs no integrity.
public struct AuthenticatorDataQuirks: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt8
    /// Creates quirks from their raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bytes after the attested credential data although the ED flag is not set (App Attest attestations of
    /// newer iOS versions); they are left unparsed.
    public static let unflaggedTrailingBytes = Self(rawValue: 1 << 0)
    /// The AT flag set on 37-byte authenticator data that holds no attested credential data (App Attest
    /// assertions).
    public static let attestedFlagWithoutData = Self(rawValue: 1 << 1)
    /// What Apple App Attest devices send.
    public static let appAttest: Self = [.unflaggedTrailingBytes, .attestedFlagWithoutData]
}
