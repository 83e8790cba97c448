import Crypto
import _CryptoExtras

/// The cryptographic key behind a ``DevicePublicKey``, and the signature conventions each kind accepts.
enum VerifyingKey: Sendable {
    case p256(P256.Signing.PublicKey)
    case rsa(_RSA.Signing.PublicKey)

    var kind: DevicePublicKey.Kind {
        switch self {
        case .p256: .p256
        case .rsa(let key): .rsa(bits: key.keySizeInBits)
        }
    }

    var derRepresentation: [UInt8] {
        switch self {
        case .p256(let key): Array(key.derRepresentation)
        case .rsa(let key): Array(key.derRepresentation)
        }
    }

    /// The convention under which `signature` signs `message`.
    func convention(of signature: [UInt8], over message: [UInt8]) throws(DeviceKeyError) -> SignatureConvention {
        switch self {
        case .p256(let key): try Self.ecdsaConvention(of: signature, over: message, key: key)
        case .rsa(let key): try Self.rsaConvention(of: signature, over: message, key: key)
        }
    }

    private static func ecdsaConvention(
        of signature: [UInt8], over message: [UInt8], key: P256.Signing.PublicKey
    ) throws(DeviceKeyError) -> SignatureConvention {
        let parsed: P256.Signing.ECDSASignature
        do {
            parsed = try P256.Signing.ECDSASignature(derRepresentation: signature)
        } catch {
            throw signature.count == 64 ? .rawECDSASignature : .malformedSignature
        }
        if key.isValidSignature(parsed, for: message) { return .ecdsaSHA256 }
        // The native iOS client hashes the challenge itself and then signs with ecdsaSignatureMessageX962SHA256,
        // which hashes its input again: the signed digest is SHA-256(SHA-256(challenge)).
        if key.isValidSignature(parsed, for: Array(SHA256.hash(data: message))) { return .ecdsaSHA256OfSHA256Digest }
        throw .signatureMismatch
    }

    private static func rsaConvention(
        of signature: [UInt8], over message: [UInt8], key: _RSA.Signing.PublicKey
    ) throws(DeviceKeyError) -> SignatureConvention {
        let modulusByteCount = (key.keySizeInBits + 7) / 8
        guard signature.count == modulusByteCount else {
            throw .wrongSignatureLength(expected: modulusByteCount, actual: signature.count)
        }
        let parsed = _RSA.Signing.RSASignature(rawRepresentation: signature)
        guard key.isValidSignature(parsed, for: message, padding: .insecurePKCS1v1_5) else { throw .signatureMismatch }
        return .rsaPKCS1v15SHA256
    }
}
