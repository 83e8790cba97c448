import WebAuthn

/// Makes and uses passkeys: the platform's, through ASAuthorization, or `SoftwarePasskeyAuthenticator`.
///
/// It answers the server's options with the JSON a browser's `PublicKeyCredential.toJSON()` gives, which every Hale
/// surface accepts.
public protocol PasskeyAuthenticator: Sendable {
    /// Creates a passkey for `options`.
    func register(_ options: CreationOptions) async throws -> RegistrationResponseJSON
    /// Signs `options`' challenge with a passkey.
    func authenticate(_ options: RequestOptions) async throws -> AuthenticationResponseJSON
}

/// A `SoftwarePasskey` as a `PasskeyAuthenticator`: it keeps the user handle and the signature counter between
/// ceremonies.
public actor SoftwarePasskeyAuthenticator: PasskeyAuthenticator {
    /// The passkey, as it stands after the ceremonies so far.
    public private(set) var passkey: SoftwarePasskey

    /// An authenticator holding `passkey`.
    public init(_ passkey: SoftwarePasskey) {
        self.passkey = passkey
    }

    /// Creates the passkey for `options`' user, remembering the user handle.
    public func register(_ options: CreationOptions) -> RegistrationResponseJSON {
        passkey.register(options: options)
    }

    /// Signs `options`' challenge, counting the signature.
    public func authenticate(_ options: RequestOptions) -> AuthenticationResponseJSON {
        passkey.assert(options: options)
    }
}
