import Crypto
import X509
import _CryptoExtras

/// The COSE algorithms an attestation signature (not a credential) may use, by their COSE identifiers.
///
/// Kept apart from ``COSEAlgorithm`` on purpose: TPMs still sign attestations with RS1 (RSASSA-PKCS1-v1_5 with
/// SHA-1), which Hale must verify there but never accept for a credential key. ``COSEAlgorithm`` stays the list of
/// credential algorithms, so RS1 cannot be offered, registered, or used to sign in.
enum AttestationSignatureAlgorithm: Int, Sendable {
    /// ECDSA with P-256 and SHA-256; the signature is DER.
    case es256 = -7
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = -257
    /// RSASSA-PKCS1-v1_5 with SHA-1, for attestation only (RFC 8812 §2).
    case rs1 = -65535

    /// The digest of `data` under the algorithm's hash function.
    func hash(_ data: [UInt8]) -> [UInt8] {
        switch self {
        case .es256, .rs256: Array(SHA256.hash(data: data))
        case .rs1: Array(Insecure.SHA1.hash(data: data))
        }
    }

    /// Whether `signature` is a signature over `data` by the public key of `certificate`.
    func isValidSignature(_ signature: [UInt8], for data: [UInt8], by certificate: Certificate) -> Bool {
        switch self {
        case .es256:
            guard let key = P256.Signing.PublicKey(certificate.publicKey),
                let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature)
            else { return false }
            return key.isValidSignature(parsed, for: data)
        case .rs256:
            guard let key = _RSA.Signing.PublicKey(certificate.publicKey) else { return false }
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: data),
                padding: .insecurePKCS1v1_5)
        case .rs1:
            guard let key = _RSA.Signing.PublicKey(certificate.publicKey) else { return false }
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: Insecure.SHA1.hash(data: data),
                padding: .insecurePKCS1v1_5)
        }
    }
}
