/// Why a Play Integrity token was refused: a stable code, and a message safe to show a client.
public enum PlayIntegrityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The token is not a compact JWE holding a compact JWS with a JSON payload of the documented shape.
    case malformed
    /// The JWE header is not exactly A256KW with A256GCM, or the JWS is not ES256.
    case wrongAlgorithm
    /// The content key does not unwrap, or the payload does not decrypt, with the decryption key.
    case decryptionFailed
    /// The JWS signature does not verify with the verification key.
    case badSignature
    /// The request or app package name is not a configured app's.
    case wrongPackage
    /// No signing certificate digest is a configured one.
    case wrongCertificate
    /// Neither the nonce nor the request hash is the one issued.
    case nonceMismatch
    /// The token's timestamp is too old, or in the future.
    case stale
    /// The app recognition verdict is not one the policy accepts.
    case appNotRecognized
    /// The device recognition verdict lacks the label the policy requires.
    case deviceIntegrity
    /// The licensing verdict is not one the policy accepts.
    case licensing
    /// The verifier's configuration is unusable: a key that does not decode, or no apps.
    case invalidConfiguration

    /// The stable, machine-readable reason.
    public var code: String {
        switch self {
        case .malformed: "MALFORMED"
        case .wrongAlgorithm: "WRONG_ALGORITHM"
        case .decryptionFailed: "DECRYPTION_FAILED"
        case .badSignature: "BAD_SIGNATURE"
        case .wrongPackage: "WRONG_PACKAGE"
        case .wrongCertificate: "WRONG_CERTIFICATE"
        case .nonceMismatch: "NONCE_MISMATCH"
        case .stale: "STALE"
        case .appNotRecognized: "APP_NOT_RECOGNIZED"
        case .deviceIntegrity: "DEVICE_INTEGRITY"
        case .licensing: "LICENSING"
        case .invalidConfiguration: "INVALID_CONFIGURATION"
        }
    }

    /// A human-readable explanation, free of key material.
    public var message: String {
        switch self {
        case .malformed: "The integrity token is not well formed."
        case .wrongAlgorithm: "The integrity token uses an algorithm that is not accepted."
        case .decryptionFailed: "The integrity token does not decrypt."
        case .badSignature: "The integrity token's signature does not verify."
        case .wrongPackage: "The integrity token is for another app."
        case .wrongCertificate: "The app is not signed with a known certificate."
        case .nonceMismatch: "The integrity token was not made for this request."
        case .stale: "The integrity token is too old or from the future."
        case .appNotRecognized: "The app is not recognized by Google Play."
        case .deviceIntegrity: "The device does not meet the required integrity."
        case .licensing: "The app is not licensed to this account."
        case .invalidConfiguration: "The Play Integrity configuration is not usable."
        }
    }

    /// The code and the message.
    public var description: String { "\(code): \(message)" }
}
