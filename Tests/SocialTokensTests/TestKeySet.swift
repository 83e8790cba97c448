import Crypto
import Foundation
import _CryptoExtras

/// JWK Set documents as providers publish them.
enum TestKeySet {
    /// The JWK of an RSA public key; `alg` nil leaves the member out.
    static func rsa(_ key: _RSA.Signing.PublicKey, kid: String, alg: String? = "RS256", use: String? = "sig")
        -> [String: any Sendable]
    {
        let primitives = try! key.getKeyPrimitives()
        var jwk: [String: any Sendable] = [
            "kty": "RSA", "kid": kid, "n": TestBase64URL.encode(primitives.modulus),
            "e": TestBase64URL.encode(primitives.publicExponent),
        ]
        jwk["alg"] = alg
        jwk["use"] = use
        return jwk
    }

    /// The JWK of a P-256 public key.
    static func p256(_ key: P256.Signing.PublicKey, kid: String, alg: String? = "ES256") -> [String: any Sendable] {
        let point = Array(key.x963Representation)
        var jwk: [String: any Sendable] = [
            "kty": "EC", "crv": "P-256", "kid": kid, "x": TestBase64URL.encode(point[1...32]),
            "y": TestBase64URL.encode(point[33...64]),
        ]
        jwk["alg"] = alg
        return jwk
    }

    /// A JWK Set document holding `keys`, which may include members that are not keys.
    static func document(_ keys: [Any]) -> [UInt8] {
        Array(try! JSONSerialization.data(withJSONObject: ["keys": keys], options: [.sortedKeys]))
    }
}
