/// Why an App Attest attestation or assertion was refused: a stable code, and a message safe to show a client.
public enum AppAttestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input is not CBOR of the required shape, or the authenticator data is truncated.
    case malformed
    /// The attestation's `fmt` is not `apple-appattest`.
    case wrongFormat
    /// The certificate chain does not lead to the App Attest root, or is not valid at the verification time.
    case chainInvalid
    /// The certified nonce is not SHA-256(authenticatorData ‖ clientDataHash).
    case nonceMismatch
    /// The key ID is not the SHA-256 of the certified key, or not the credential ID.
    case keyIDMismatch
    /// The rpIdHash is not the SHA-256 of a configured app's App ID.
    case wrongApp
    /// A new key's counter is not 0.
    case counterNotZero
    /// The AAGUID is not the configured environment's.
    case wrongEnvironment
    /// The assertion's signature does not verify with the attested key.
    case badSignature
    /// The assertion's counter is not greater than the stored one.
    case counterReplay
    /// The verifier's configuration is unusable: no apps, or a root that is not a PEM certificate.
    case invalidConfiguration

    /// The stable, machine-readable reason.
    public var code: String {
        switch self {
        case .malformed: "MALFORMED"
        case .wrongFormat: "WRONG_FORMAT"
        case .chainInvalid: "CHAIN_INVALID"
        case .nonceMismatch: "NONCE_MISMATCH"
        case .keyIDMismatch: "KEY_ID_MISMATCH"
        case .wrongApp: "WRONG_APP"
        case .counterNotZero: "COUNTER_NOT_ZERO"
        case .wrongEnvironment: "WRONG_ENVIRONMENT"
        case .badSignature: "BAD_SIGNATURE"
        case .counterReplay: "COUNTER_REPLAY"
        case .invalidConfiguration: "INVALID_CONFIGURATION"
        }
    }

    /// A human-readable explanation, free of key material.
    public var message: String {
        switch self {
        case .malformed: "The attestation or assertion is not well formed."
        case .wrongFormat: "The attestation is not an App Attest attestation."
        case .chainInvalid: "The attestation certificates are not valid or do not lead to the App Attest root."
        case .nonceMismatch: "The attestation was not made for this client data."
        case .keyIDMismatch: "The attestation is not for this key ID."
        case .wrongApp: "The attestation or assertion is for another app."
        case .counterNotZero: "A new key's counter must be 0."
        case .wrongEnvironment: "The attestation is from another App Attest environment."
        case .badSignature: "The assertion's signature does not verify."
        case .counterReplay: "The assertion's counter did not increase."
        case .invalidConfiguration: "The App Attest configuration is not usable."
        }
    }

    /// The code and the message.
    public var description: String { "\(code): \(message)" }
}
