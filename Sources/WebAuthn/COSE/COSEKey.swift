import CBOR
import Crypto
import _CryptoExtras

/// A credential public key decoded from its COSE_Key form (RFC 9053), able to verify signatures.
public enum COSEKey: Sendable {
    /// An EC2 P-256 key for ES256.
    case p256(P256.Signing.PublicKey)
    /// An OKP Ed25519 key for EdDSA.
    case ed25519(Curve25519.Signing.PublicKey)
    /// An RSA key of at least 2048 bits for RS256.
    case rsa(_RSA.Signing.PublicKey)
    /// An AKP key for ML-DSA-65 or ML-DSA-87.
    case mlDSA(MLDSAPublicKey)

    /// The algorithm the key signs with.
    public var algorithm: COSEAlgorithm {
        switch self {
        case .p256: .es256
        case .ed25519: .edDSA
        case .rsa: .rs256
        case .mlDSA(let key): key.algorithm
        }
    }

    /// The longest byte string a COSE key may hold: an ML-DSA-87 `pub`. An RSA modulus is at most 2048 bytes.
    static let maximumParameterLength = MLDSAPublicKey.maximumPublicKeyLength

    /// The CBOR decoder for COSE keys: a flat map, no byte string longer than `maximumParameterLength`.
    static let decoder = CBORDecoder(maximumDepth: 4, maximumLength: maximumParameterLength)

    /// Decodes COSE_Key bytes.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        if let key = try Self.canonicalP256(bytes) {
            self = .p256(key)
            return
        }
        guard let value = try? Self.decoder.decode(bytes) else {
            throw Self.invalid("the public key is not valid CBOR")
        }
        try self.init(value)
    }

    /// Decodes a COSE_Key map. The key type, algorithm and curve must agree, and every parameter must be present.
    public init(_ value: CBORValue) throws(WebAuthnError) {
        // A value that is not a map answers nil for every label, so it is refused here too.
        guard let kty = value[1]?.int, let alg = value[3]?.int else {
            throw Self.invalid("the public key lacks kty or alg")
        }
        switch (kty, alg) {
        case (2, Int64(COSEAlgorithm.es256.rawValue)):
            self = .p256(try Self.p256(value))
        case (1, Int64(COSEAlgorithm.edDSA.rawValue)):
            self = .ed25519(try Self.ed25519(value))
        case (3, Int64(COSEAlgorithm.rs256.rawValue)):
            self = .rsa(try Self.rsa(value))
        case (MLDSAPublicKey.keyType, Int64(COSEAlgorithm.mlDSA65.rawValue)):
            self = .mlDSA(try MLDSAPublicKey(value, .mlDSA65))
        case (MLDSAPublicKey.keyType, Int64(COSEAlgorithm.mlDSA87.rawValue)):
            self = .mlDSA(try MLDSAPublicKey(value, .mlDSA87))
        case (MLDSAPublicKey.keyType, MLDSAPublicKey.mlDSA44):
            throw WebAuthnError(
                .unsupportedAlgorithm, "ML-DSA-44 (-48) is not supported: swift-crypto does not implement it")
        default:
            throw WebAuthnError(.unsupportedAlgorithm, "key type \(kty) with algorithm \(alg) is not supported")
        }
    }

    /// Whether `signature` is this key's signature over `data`. ES256 signatures are DER, as WebAuthn sends them; ML-DSA
    /// signatures are pure ML-DSA with the empty context.
    public func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        switch self {
        case .p256(let key):
            guard let parsed = Self.p256Signature(signature) else { return false }
            return key.isValidSignature(parsed, for: data)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: data)
        case .rsa(let key):
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: data,
                padding: .insecurePKCS1v1_5)
        case .mlDSA(let key):
            return key.isValidSignature(signature, for: data)
        }
    }

    /// The CTAP2 canonical encoding of an ES256 key, `{1: 2, 3: -7, -1: 1, -2: x, -3: y}`, which nearly every
    /// authenticator sends. Read from its fixed layout, as decoding it generically costs a tenth of a sign-in.
    private static func canonicalP256(_ bytes: [UInt8]) throws(WebAuthnError) -> P256.Signing.PublicKey? {
        guard bytes.count == 77, bytes[0..<10].elementsEqual(canonicalP256Head),
            bytes[42..<45].elementsEqual(canonicalP256YHead)
        else {
            return nil
        }
        guard let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + bytes[10..<42] + bytes[45..<77]) else {
            throw invalid("the ES256 key is not a point on P-256")
        }
        return key
    }

    private static let canonicalP256Head: [UInt8] = [0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]
    private static let canonicalP256YHead: [UInt8] = [0x22, 0x58, 0x20]

    /// Whether `signature` is this key's signature over `first ‖ second`. ES256 hashes the two parts in place
    /// rather than joining them, as an assertion's authenticator data and client-data hash are verified.
    func isValidSignature(_ signature: [UInt8], over first: [UInt8], _ second: [UInt8]) -> Bool {
        guard case .p256(let key) = self else { return isValidSignature(signature, for: first + second) }
        guard let parsed = Self.p256Signature(signature) else { return false }
        var hash = SHA256()
        hash.update(data: first)
        hash.update(data: second)
        return key.isValidSignature(parsed, for: hash.finalize())
    }

    /// A strict DER ES256 signature, as swift-crypto takes it.
    private static func p256Signature(_ der: [UInt8]) -> P256.Signing.ECDSASignature? {
        ECDSASignatureDER.rawP256(der).flatMap { try? P256.Signing.ECDSASignature(rawRepresentation: $0) }
    }

    private static func p256(_ value: CBORValue) throws(WebAuthnError) -> P256.Signing.PublicKey {
        guard value[-1]?.int == 1, let x = value[-2]?.bytes, let y = value[-3]?.bytes, x.count == 32, y.count == 32
        else {
            throw invalid("an ES256 key must be on P-256 with 32-byte x and y")
        }
        guard let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y) else {
            throw invalid("the ES256 key is not a point on P-256")
        }
        return key
    }

    private static func ed25519(_ value: CBORValue) throws(WebAuthnError) -> Curve25519.Signing.PublicKey {
        guard value[-1]?.int == 6, let x = value[-2]?.bytes, x.count == 32,
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x)
        else {
            throw invalid("an EdDSA key must be Ed25519 with a 32-byte x")
        }
        return key
    }

    private static func rsa(_ value: CBORValue) throws(WebAuthnError) -> _RSA.Signing.PublicKey {
        guard let modulus = value[-1]?.bytes, let exponent = value[-2]?.bytes else {
            throw invalid("an RS256 key needs a valid modulus and exponent")
        }
        // Checked here, not left to swift-crypto (which refuses such keys too), so the refusal says why.
        guard bitLength(of: modulus) >= 2048 else { throw invalid("RSA keys shorter than 2048 bits are not accepted") }
        guard let key = try? _RSA.Signing.PublicKey(n: modulus, e: exponent) else {
            throw invalid("an RS256 key needs a valid modulus and exponent")
        }
        return key
    }

    /// The number of significant bits of a big-endian unsigned integer.
    private static func bitLength(of bytes: [UInt8]) -> Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (bytes.count - first) * 8 - bytes[first].leadingZeroBitCount
    }

    private static func invalid(_ message: String) -> WebAuthnError {
        WebAuthnError(.invalidPublicKey, message)
    }
}
