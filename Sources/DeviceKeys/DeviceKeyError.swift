/// Why a device public key or a challenge signature was refused: a stable code, and a message free of key material.
///
/// The codes are precise so that logs and tests can tell the reasons apart; a surface that answers an untrusted client
/// may collapse the signature codes into one, so as not to reveal which check failed.
public enum DeviceKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not a PEM document of the shape the documented clients write.
    case malformedPEM
    /// The PEM document holds something other than a `PUBLIC KEY` (a private key, a certificate, …).
    case wrongPEMLabel
    /// The PEM body is not standard, padded base64.
    case invalidPEMBase64
    /// Something other than one line break follows the PEM footer.
    case pemTrailingData
    /// The DER is not a SubjectPublicKeyInfo, or the key inside it is not well formed.
    case malformedPublicKey
    /// The key is neither EC nor RSA (Ed25519, DSA, …).
    case unsupportedKeyType
    /// The key is EC, on a curve other than P-256.
    case unsupportedCurve
    /// The EC point is not in the uncompressed form (`0x04 ‖ X ‖ Y`, 65 bytes) both platforms export.
    case ecPointNotUncompressed
    /// The EC point is uncompressed but not a point on P-256.
    case invalidECPoint
    /// The RSA modulus is shorter than 2048 bits.
    case rsaKeyTooSmall(bits: Int)
    /// The RSA modulus is longer than 8192 bits.
    case rsaKeyTooLarge(bits: Int)
    /// The signature text is empty.
    case emptySignature
    /// The signature is longer than any supported key can produce.
    case signatureTooLarge
    /// The signature text contains whitespace or line breaks.
    case signatureWhitespace
    /// The signature is base64url, not standard base64.
    case signatureBase64URL
    /// The signature text is not standard base64.
    case invalidSignatureBase64
    /// An ECDSA signature is the raw 64-byte `r‖s` form rather than DER.
    case rawECDSASignature
    /// An ECDSA signature is not a DER `ECDSA-Sig-Value`.
    case malformedSignature
    /// An RSA signature's length differs from the modulus length.
    case wrongSignatureLength(expected: Int, actual: Int)
    /// The signature is well formed but verifies under none of the accepted conventions.
    case signatureMismatch

    /// The stable, machine-readable reason.
    public var code: String {
        switch self {
        case .malformedPEM: "MALFORMED_PEM"
        case .wrongPEMLabel: "WRONG_PEM_LABEL"
        case .invalidPEMBase64: "INVALID_PEM_BASE64"
        case .pemTrailingData: "PEM_TRAILING_DATA"
        case .malformedPublicKey: "MALFORMED_PUBLIC_KEY"
        case .unsupportedKeyType: "UNSUPPORTED_KEY_TYPE"
        case .unsupportedCurve: "UNSUPPORTED_CURVE"
        case .ecPointNotUncompressed: "EC_POINT_NOT_UNCOMPRESSED"
        case .invalidECPoint: "INVALID_EC_POINT"
        case .rsaKeyTooSmall: "RSA_KEY_TOO_SMALL"
        case .rsaKeyTooLarge: "RSA_KEY_TOO_LARGE"
        case .emptySignature: "EMPTY_SIGNATURE"
        case .signatureTooLarge: "SIGNATURE_TOO_LARGE"
        case .signatureWhitespace: "SIGNATURE_WHITESPACE"
        case .signatureBase64URL: "SIGNATURE_BASE64URL"
        case .invalidSignatureBase64: "INVALID_SIGNATURE_BASE64"
        case .rawECDSASignature: "RAW_ECDSA_SIGNATURE"
        case .malformedSignature: "MALFORMED_SIGNATURE"
        case .wrongSignatureLength: "WRONG_SIGNATURE_LENGTH"
        case .signatureMismatch: "SIGNATURE_MISMATCH"
        }
    }

    /// A human-readable explanation, safe to log.
    public var message: String {
        switch self {
        case .malformedPEM: "The public key is not a PEM document with a header, base64 lines and a footer."
        case .wrongPEMLabel: "The PEM document is not a PUBLIC KEY."
        case .invalidPEMBase64: "The PEM body is not standard, padded base64."
        case .pemTrailingData: "Data follows the PEM footer."
        case .malformedPublicKey: "The public key is not a well-formed DER SubjectPublicKeyInfo."
        case .unsupportedKeyType: "Only EC P-256 and RSA public keys are supported."
        case .unsupportedCurve: "Only the P-256 curve is supported."
        case .ecPointNotUncompressed: "The EC public key is not an uncompressed point (0x04, X, Y: 65 bytes)."
        case .invalidECPoint: "The EC public key is not a point on P-256."
        case .rsaKeyTooSmall(let bits): "The RSA key has \(bits) bits; at least 2048 are required."
        case .rsaKeyTooLarge(let bits): "The RSA key has \(bits) bits; at most 8192 are supported."
        case .emptySignature: "The signature is empty."
        case .signatureTooLarge: "The signature is longer than 1024 bytes."
        case .signatureWhitespace: "The signature contains whitespace."
        case .signatureBase64URL: "The signature is base64url; standard base64 is required."
        case .invalidSignatureBase64: "The signature is not standard base64."
        case .rawECDSASignature: "The ECDSA signature is raw r||s; a DER signature is required."
        case .malformedSignature: "The ECDSA signature is not DER."
        case .wrongSignatureLength(let expected, let actual):
            "The RSA signature has \(actual) bytes; the key requires \(expected)."
        case .signatureMismatch: "The signature does not verify."
        }
    }

    /// The code and the message.
    public var description: String { "\(code): \(message)" }
}
