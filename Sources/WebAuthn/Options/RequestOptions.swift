/// `PublicKeyCredentialRequestOptionsJSON` (WebAuthn L3 §5.5): what `navigator.credentials.get()`, Android
/// Credential Manager and iOS need to sign in.
public struct RequestOptions: Codable, Sendable, Equatable {
    /// The challenge, base64url.
    public var challenge: String
    /// How long the client should wait, in milliseconds.
    public var timeout: Int
    /// The RP ID.
    public var rpId: String
    /// The credentials that may answer; empty for discoverable (username-less) sign-in.
    public var allowCredentials: [CredentialDescriptor]
    /// Whether to verify the user.
    public var userVerification: UserVerificationRequirement
    /// Hints such as `client-device`.
    public var hints: [String]
}
