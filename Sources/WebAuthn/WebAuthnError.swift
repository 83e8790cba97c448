/// Why a WebAuthn ceremony failed: a stable code, and a message that is safe to show a client.
public struct WebAuthnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable, machine-readable reason.
    public let code: Code
    /// A human-readable explanation, free of key material.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message.
    public var description: String { "\(code): \(message)" }

    /// Equal when the codes are equal; messages may be reworded.
    public static func == (lhs: WebAuthnError, rhs: WebAuthnError) -> Bool {
        lhs.code == rhs.code
    }

    /// A stable reason code. New codes are added as static members; existing ones never change.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code as it appears on the wire.
        public let rawValue: String
        /// Creates a code from its wire form.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The wire form.
        public var description: String { rawValue }
    }
}

extension WebAuthnError.Code {
    /// The credential JSON is missing members or has members of the wrong type.
    public static let malformedCredential = Self(rawValue: "MALFORMED_CREDENTIAL")
    /// A base64url member is not base64url.
    public static let invalidBase64URL = Self(rawValue: "INVALID_BASE64URL")
    /// `clientDataJSON` is not the JSON the client must produce.
    public static let malformedClientData = Self(rawValue: "MALFORMED_CLIENT_DATA")
    /// `clientDataJSON.type` is not this ceremony's.
    public static let wrongCeremonyType = Self(rawValue: "WRONG_CEREMONY_TYPE")
    /// The challenge in `clientDataJSON` is not the one the server issued.
    public static let challengeMismatch = Self(rawValue: "CHALLENGE_MISMATCH")
    /// The origin in `clientDataJSON` is not an allowed origin.
    public static let originNotAllowed = Self(rawValue: "ORIGIN_NOT_ALLOWED")
    /// The ceremony ran in a cross-origin frame, which Hale does not allow.
    public static let crossOriginNotAllowed = Self(rawValue: "CROSS_ORIGIN_NOT_ALLOWED")
    /// The attestation object is not valid CBOR of the required shape.
    public static let malformedAttestationObject = Self(rawValue: "MALFORMED_ATTESTATION_OBJECT")
    /// The authenticator data is truncated or inconsistent with its flags.
    public static let malformedAuthenticatorData = Self(rawValue: "MALFORMED_AUTHENTICATOR_DATA")
    /// The authenticator data is for another relying party.
    public static let rpIDHashMismatch = Self(rawValue: "RP_ID_HASH_MISMATCH")
    /// The user-present flag is not set.
    public static let userNotPresent = Self(rawValue: "USER_NOT_PRESENT")
    /// User verification is required and the user-verified flag is not set.
    public static let userNotVerified = Self(rawValue: "USER_NOT_VERIFIED")
    /// The backup-state flag is set on a credential that is not backup-eligible.
    public static let invalidBackupFlags = Self(rawValue: "INVALID_BACKUP_FLAGS")
    /// The credential's backup eligibility differs from what was recorded at registration.
    public static let backupEligibilityChanged = Self(rawValue: "BACKUP_ELIGIBILITY_CHANGED")
    /// A registration without attested credential data.
    public static let missingCredentialData = Self(rawValue: "MISSING_CREDENTIAL_DATA")
    /// The credential ID is longer than 1023 bytes or does not match the response's `id`.
    public static let invalidCredentialID = Self(rawValue: "INVALID_CREDENTIAL_ID")
    /// The COSE public key is malformed, of an unsupported type, or weaker than allowed.
    public static let invalidPublicKey = Self(rawValue: "INVALID_PUBLIC_KEY")
    /// The credential's algorithm is not one the relying party offered.
    public static let unsupportedAlgorithm = Self(rawValue: "UNSUPPORTED_ALGORITHM")
    /// The attestation statement format is not one Hale verifies.
    public static let unsupportedAttestationFormat = Self(rawValue: "UNSUPPORTED_ATTESTATION_FORMAT")
    /// The attestation statement is malformed or its signature does not verify.
    public static let invalidAttestation = Self(rawValue: "INVALID_ATTESTATION")
    /// The attestation certificate chain does not lead to a configured trust anchor.
    public static let untrustedAttestation = Self(rawValue: "UNTRUSTED_ATTESTATION")
    /// The assertion signature does not verify with the credential's public key.
    public static let invalidSignature = Self(rawValue: "INVALID_SIGNATURE")
    /// The signature counter did not increase: the credential may have been cloned.
    public static let signCountRegression = Self(rawValue: "SIGN_COUNT_REGRESSION")
}
