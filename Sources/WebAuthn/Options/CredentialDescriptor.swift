import ByteEncoding

/// `PublicKeyCredentialDescriptorJSON`: a credential the client should exclude or may use.
public struct CredentialDescriptor: Codable, Sendable, Equatable {
    /// Always `public-key`.
    public var type = "public-key"
    /// The credential ID, base64url.
    public var id: String
    /// Transports the credential was registered with, if known.
    public var transports: [String]?

    /// A descriptor for the credential with these raw ID bytes.
    public init(id: [UInt8], transports: [String]? = nil) {
        self.id = Base64URL.encode(id)
        self.transports = transports
    }
}

/// `residentKey`: whether the credential should be discoverable (a passkey).
public enum ResidentKeyRequirement: String, Codable, Sendable {
    /// Do not create a discoverable credential.
    case discouraged
    /// Create one if the authenticator can.
    case preferred
    /// Create one or fail.
    case required
}

/// `userVerification`: whether the authenticator must verify the user (biometrics or PIN).
public enum UserVerificationRequirement: String, Codable, Sendable {
    /// Verification is required.
    case required
    /// Verify if the authenticator can.
    case preferred
    /// Do not verify.
    case discouraged
}

/// `attestation`: what attestation the relying party asks for.
public enum AttestationConveyance: String, Codable, Sendable {
    /// No attestation; the client sends `none`.
    case none
    /// Attestation, possibly anonymised by the client.
    case indirect
    /// The authenticator's own attestation.
    case direct
    /// Enterprise attestation, which identifies the device.
    case enterprise
}
