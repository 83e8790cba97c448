import Crypto
import _CryptoExtras

/// A public key from a provider's JWK Set (RFC 7517), usable for exactly one signature algorithm.
struct JSONWebKey: Sendable {
    /// The key material, which fixes the algorithm.
    enum Material: Sendable {
        /// An RSA key of 2048 to 8192 bits, for RS256.
        case rsa(_RSA.Signing.PublicKey)
        /// An EC P-256 key, for ES256.
        case p256(P256.Signing.PublicKey)
    }

    /// The key's `kid`.
    let keyID: String
    /// The public key.
    let material: Material

    /// The one algorithm this key verifies: a header declaring another is refused, so that an RSA public key can
    /// never be used as an HMAC secret or an ECDSA key.
    var algorithm: SignatureAlgorithm {
        switch material {
        case .rsa: .rs256
        case .p256: .es256
        }
    }

    /// Checks that `signature` is this key's signature over `signingInput` (RFC 7518 §3.3 and §3.4). Throws
    /// `signatureLength` for a signature that cannot be one of this key's (a DER-encoded ES256 signature, say), else
    /// `badSignature` unless it verifies.
    func verify(_ signature: [UInt8], for signingInput: [UInt8]) throws(SocialTokenError) {
        switch material {
        case .rsa(let key):
            // RFC 7518 §3.3: the signature is exactly as long as the modulus.
            guard signature.count == (key.keySizeInBits + 7) / 8 else { throw .signatureLength }
            let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
            guard key.isValidSignature(rsaSignature, for: signingInput, padding: .insecurePKCS1v1_5) else {
                throw .badSignature
            }
        case .p256(let key):
            // RFC 7518 §3.4: R and S, 32 bytes each, not DER.
            guard signature.count == 64 else { throw .signatureLength }
            guard let ecdsaSignature = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
                key.isValidSignature(ecdsaSignature, for: signingInput)
            else { throw .badSignature }
        }
    }
}
