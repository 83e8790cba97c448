import ByteEncoding

/// `PublicKeyCredentialCreationOptionsJSON` (WebAuthn L3 §5.4): what `navigator.credentials.create()`,
/// `PublicKeyCredential.parseCreationOptionsFromJSON`, Android Credential Manager's `requestJson` and iOS need.
public struct CreationOptions: Codable, Sendable, Equatable {
    /// The relying party.
    public struct RelyingPartyEntity: Codable, Sendable, Equatable {
        /// The RP ID, a registrable domain such as `petwash.co.il`.
        public var id: String
        /// A name to show the user.
        public var name: String
    }

    /// The user account the credential is for.
    public struct UserEntity: Codable, Sendable, Equatable {
        /// The user handle, base64url: opaque, at most 64 bytes, never personal data.
        public var id: String
        /// A name that tells accounts apart, such as an email address.
        public var name: String
        /// A friendly name.
        public var displayName: String

        /// A user entity; `handle` is the opaque user handle bytes.
        public init(handle: [UInt8], name: String, displayName: String) {
            self.id = Base64URL.encode(handle)
            self.name = name
            self.displayName = displayName
        }
    }

    /// One acceptable credential algorithm.
    public struct CredentialParameters: Codable, Sendable, Equatable {
        /// Always `public-key`.
        public var type = "public-key"
        /// The COSE algorithm identifier.
        public var alg: Int
    }

    /// What kind of authenticator to use.
    public struct AuthenticatorSelection: Codable, Sendable, Equatable {
        /// Whether to create a discoverable credential.
        public var residentKey: ResidentKeyRequirement
        /// Level 1 spelling of `residentKey == .required`, for older clients.
        public var requireResidentKey: Bool
        /// Whether to verify the user.
        public var userVerification: UserVerificationRequirement
    }

    /// Client extension inputs.
    public struct Extensions: Codable, Sendable, Equatable {
        /// Ask the client to report whether the credential is discoverable.
        public var credProps: Bool
    }

    /// The relying party.
    public var rp: RelyingPartyEntity
    /// The user.
    public var user: UserEntity
    /// The challenge, base64url.
    public var challenge: String
    /// Acceptable algorithms, most preferred first.
    public var pubKeyCredParams: [CredentialParameters]
    /// How long the client should wait, in milliseconds.
    public var timeout: Int
    /// Credentials the user already has, so the authenticator does not create a second one.
    public var excludeCredentials: [CredentialDescriptor]
    /// Authenticator requirements.
    public var authenticatorSelection: AuthenticatorSelection
    /// Attestation conveyance.
    public var attestation: AttestationConveyance
    /// Hints such as `client-device`, `security-key` or `hybrid`.
    public var hints: [String]
    /// Extension inputs.
    public var extensions: Extensions
}
