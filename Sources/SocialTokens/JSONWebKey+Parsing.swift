import ByteEncoding
import Crypto
import StrictJSON
import _CryptoExtras

extension JSONWebKey {
    /// The RSA modulus sizes accepted: smaller keys are weak, larger ones only cost verification time.
    static let rsaModulusBits = 2048...8192

    /// Why a member of a JWK Set's `keys` is not a key this library uses. The set skips such a member; the reason
    /// says which check refused it.
    enum Unusable: Error, Equatable {
        /// No `kid`, or an empty one: a token's header can never name it.
        case noKeyID
        /// `use` other than `sig`, or `key_ops` without `verify` (RFC 7517 §4.2 and §4.3).
        case notForVerification
        /// A `kty` other than RSA or EC.
        case unsupportedKeyType
        /// An `alg` that is not the one algorithm the key type is used for.
        case algorithmDoesNotFitKey
        /// `n` or `e` absent or not base64url, or a modulus of zeros.
        case rsaParametersMissing
        /// An empty exponent.
        case emptyExponent
        /// A modulus outside `rsaModulusBits`, counted in significant bits.
        case rsaModulusSize(bits: Int)
        /// An EC key on another curve than P-256.
        case notP256
        /// `x` or `y` absent or not base64url.
        case coordinatesMissing
        /// `x` or `y` not exactly 32 bytes.
        case coordinateLength
        /// Parameters of the right shape that the cryptographic library refuses: a point off the curve, say.
        case invalidKey
    }

    /// Reads one member of a JWK Set's `keys`; nil for a key this library does not use (see `read(_:)`).
    init?(_ members: [String: JSONValue]) {
        guard let key = try? Self.read(members) else { return nil }
        self = key
    }

    /// Reads one member of a JWK Set's `keys`: an RSA key for RS256 or an EC P-256 key for ES256, with a `kid`.
    static func read(_ members: [String: JSONValue]) throws(Unusable) -> JSONWebKey {
        guard let keyID = members["kid"]?.string, !keyID.isEmpty else { throw .noKeyID }
        if let use = members["use"], use.string != "sig" { throw .notForVerification }
        if let operations = members["key_ops"] {
            guard case .array(let values) = operations, values.contains(.string("verify")) else {
                throw .notForVerification
            }
        }
        let algorithm = members["alg"]
        switch members["kty"]?.string {
        case "RSA":
            guard algorithm == nil || algorithm?.string == SignatureAlgorithm.rs256.rawValue else {
                throw .algorithmDoesNotFitKey
            }
            return JSONWebKey(keyID: keyID, material: .rsa(try rsaKey(members)))
        case "EC":
            guard algorithm == nil || algorithm?.string == SignatureAlgorithm.es256.rawValue else {
                throw .algorithmDoesNotFitKey
            }
            return JSONWebKey(keyID: keyID, material: .p256(try p256Key(members)))
        default:
            throw .unsupportedKeyType
        }
    }

    /// An RSA key from `n` and `e` (RFC 7518 §6.3.1).
    private static func rsaKey(_ members: [String: JSONValue]) throws(Unusable) -> _RSA.Signing.PublicKey {
        guard let modulus = members["n"]?.string.flatMap(Base64URL.canonicalBytes),
            let exponent = members["e"]?.string.flatMap(Base64URL.canonicalBytes),
            let top = modulus.drop(while: { $0 == 0 }).first
        else { throw .rsaParametersMissing }
        guard !exponent.isEmpty else { throw .emptyExponent }
        let significantBytes = modulus.drop(while: { $0 == 0 }).count
        let bits = significantBytes * 8 - top.leadingZeroBitCount
        // Refused before the cryptographic library sees it, so that an oversized modulus costs nothing.
        guard rsaModulusBits.contains(bits) else { throw .rsaModulusSize(bits: bits) }
        guard let key = try? _RSA.Signing.PublicKey(n: modulus, e: exponent) else { throw .invalidKey }
        return key
    }

    /// A P-256 key from `crv`, `x` and `y` (RFC 7518 §6.2.1).
    private static func p256Key(_ members: [String: JSONValue]) throws(Unusable) -> P256.Signing.PublicKey {
        guard members["crv"]?.string == "P-256" else { throw .notP256 }
        guard let x = members["x"]?.string.flatMap(Base64URL.canonicalBytes),
            let y = members["y"]?.string.flatMap(Base64URL.canonicalBytes)
        else { throw .coordinatesMissing }
        guard x.count == 32, y.count == 32 else { throw .coordinateLength }
        guard let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y) else { throw .invalidKey }
        return key
    }
}
