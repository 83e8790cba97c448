import Crypto
import Foundation
import _CryptoExtras

/// Builds compact JWS tokens the way providers do, and the ways attackers do.
enum TestJWT {
    /// How the token is signed.
    enum Signer {
        /// RS256 with an RSA key.
        case rsa(_RSA.Signing.PrivateKey)
        /// ES256 with a P-256 key.
        case p256(P256.Signing.PrivateKey)
        /// HS256 with these bytes as the secret.
        case hmac([UInt8])
        /// No signature at all.
        case empty
    }

    /// A token with `header` and `claims`, signed by `signer`.
    static func make(header: [String: Any], claims: [String: Any], signer: Signer) -> String {
        let input = encodeJSON(header) + "." + encodeJSON(claims)
        return input + "." + TestBase64URL.encode(signature(over: Array(input.utf8), signer: signer))
    }

    /// A token signed by `key` with the header providers write: RS256, `kid`, `typ` JWT.
    static func rs256(_ claims: [String: Any], kid: String, key: _RSA.Signing.PrivateKey = TestKeys.rsa) -> String {
        make(header: ["alg": "RS256", "kid": kid, "typ": "JWT"], claims: claims, signer: .rsa(key))
    }

    /// `object` as base64url JSON.
    static func encodeJSON(_ object: Any) -> String {
        TestBase64URL.encode(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// The signature bytes `signer` makes over `input`.
    static func signature(over input: [UInt8], signer: Signer) -> [UInt8] {
        switch signer {
        case .rsa(let key):
            Array(try! key.signature(for: input, padding: .insecurePKCS1v1_5).rawRepresentation)
        case .p256(let key):
            Array(try! key.signature(for: input).rawRepresentation)
        case .hmac(let secret):
            Array(HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: secret)))
        case .empty:
            []
        }
    }
}
