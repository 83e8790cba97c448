import Crypto
import StrictJSON
import _CryptoExtras

extension JSONWebKey {
    /// The RSA modulus sizes accepted: smaller keys are weak, larger ones only cost verification time.
    static let rsaModulusBits = 2048...8192

    /// Reads one member of a JWK Set's `keys`; nil for a key this library does not use: no `kid`, `use` other than
    /// `sig`, `key_ops` without `verify`, a `kty` other than RSA or EC P-256, an `alg` that does not fit the key type,
    /// or material that is not a valid key.
    init?(_ members: [String: JSONValue]) {
        guard let keyID = members["kid"]?.string, !keyID.isEmpty else { return nil }
        // RFC 7517 §4.2 and §4.3: keys meant for encryption, or not for verification, are not signature keys.
        if let use = members["use"], use.string != "sig" { return nil }
        if let operations = members["key_ops"] {
            guard case .array(let values) = operations, values.contains(.string("verify")) else { return nil }
        }
        let algorithm = members["alg"]
        switch members["kty"]?.string {
        case "RSA":
            guard algorithm == nil || algorithm?.string == SignatureAlgorithm.rs256.rawValue,
                let key = Self.rsaKey(members)
            else { return nil }
            self.init(keyID: keyID, material: .rsa(key))
        case "EC":
            guard algorithm == nil || algorithm?.string == SignatureAlgorithm.es256.rawValue,
                let key = Self.p256Key(members)
            else { return nil }
            self.init(keyID: keyID, material: .p256(key))
        default:
            return nil
        }
    }

    /// An RSA key from `n` and `e` (RFC 7518 §6.3.1).
    private static func rsaKey(_ members: [String: JSONValue]) -> _RSA.Signing.PublicKey? {
        guard let modulus = members["n"]?.string.flatMap(Base64URL.decode),
            let exponent = members["e"]?.string.flatMap(Base64URL.decode),
            let top = modulus.drop(while: { $0 == 0 }).first, !exponent.isEmpty
        else { return nil }
        let significantBytes = modulus.drop(while: { $0 == 0 }).count
        let bits = significantBytes * 8 - top.leadingZeroBitCount
        // Refused before the cryptographic library sees it, so that an oversized modulus costs nothing.
        guard rsaModulusBits.contains(bits) else { return nil }
        return try? _RSA.Signing.PublicKey(n: modulus, e: exponent)
    }

    /// A P-256 key from `crv`, `x` and `y` (RFC 7518 §6.2.1).
    private static func p256Key(_ members: [String: JSONValue]) -> P256.Signing.PublicKey? {
        guard members["crv"]?.string == "P-256", let x = members["x"]?.string.flatMap(Base64URL.decode),
            let y = members["y"]?.string.flatMap(Base64URL.decode), x.count == 32, y.count == 32
        else { return nil }
        return try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
    }
}
