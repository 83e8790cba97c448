import Crypto
import Foundation
import _CryptoExtras

/// Challenge signatures exactly as each documented client makes them, made here with swift-crypto.
enum ClientSignature {
    /// Android `SHA256withECDSA` over `challenge.toByteArray()`, `Base64.NO_WRAP`; also React Native on iOS.
    static func androidNative(_ challenge: String, key: P256.Signing.PrivateKey = Fixtures.p256Key) throws -> String {
        try key.signature(for: Array(challenge.utf8)).derRepresentation.base64EncodedString()
    }

    /// iOS: SHA-256 of the challenge, then `ecdsaSignatureMessageX962SHA256` over that digest, `base64EncodedString()`.
    static func iOSNative(_ challenge: String, key: P256.Signing.PrivateKey = Fixtures.p256Key) throws -> String {
        let digest = Array(SHA256.hash(data: Array(challenge.utf8)))
        return try key.signature(for: digest).derRepresentation.base64EncodedString()
    }

    /// React Native on Android: `SHA256withRSA` (PKCS #1 v1.5) over the payload, `Base64.DEFAULT` with line breaks removed.
    static func reactNativeAndroid(_ challenge: String, key: _RSA.Signing.PrivateKey = Fixtures.rsaKey) throws -> String
    {
        try key.signature(for: Array(challenge.utf8), padding: .insecurePKCS1v1_5).rawRepresentation
            .base64EncodedString()
    }
}
