import Crypto
import Foundation
import _CryptoExtras

/// Keys made once for the whole suite: RSA key generation is slow.
enum TestKeys {
    /// The key the fake providers publish and sign with.
    static let rsa = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    /// A key no provider publishes.
    static let otherRSA = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    /// A fixed P-256 key, for ES256.
    static let p256 = try! P256.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 0x22, count: 32))
}

/// Base64url without padding, as JOSE writes it.
enum TestBase64URL {
    static func encode(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
