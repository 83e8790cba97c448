import ByteEncoding
import Crypto
import DeviceIntegrity
import Foundation
import WebAuthn

/// The Play Console keys, app, nonce and time the Play Integrity target verifies with, and the token maker that
/// uses them: A256KW + A256GCM around an ES256 JWS, as Play makes tokens.
enum FuzzPlayIntegrity {
    static let nonce = "aGFsZS1ub25jZS0x"
    static let time = Date(timeIntervalSince1970: 1_750_000_000)
    static let app = PlayIntegrityApp(
        packageName: "com.example.health", certificateDigests: ["Lg0q1uTnh0kpu_GN7TnxQcFZRi4zcAxRn7mfqFiVyfQ"])
    static let decryptionKey = SymmetricKey(data: [UInt8](repeating: 0x42, count: 32))
    // 32 bytes of 0x6B are a valid P-256 scalar: far below the group order.
    static let signingKey = try! P256.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 0x6B, count: 32))
    // Both keys above are well-formed and the app list is not empty, which is all the initialiser checks.
    static let verifier = try! PlayIntegrityVerifier(
        decryptionKey: decryptionKey.withUnsafeBytes { Data($0) }.base64EncodedString(),
        verificationKey: signingKey.publicKey.derRepresentation.base64EncodedString(), apps: [app])

    /// The compact ES256 JWS of `payload`.
    static func signed(_ payload: [UInt8]) -> String {
        let input = Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8)) + "." + Base64URL.encode(payload)
        // Signing with a valid key cannot fail.
        let signature = try! signingKey.signature(for: Array(input.utf8))
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// The compact JWE of `plaintext`, with a fixed content key and IV so that a finding replays exactly.
    static func encrypted(_ plaintext: [UInt8]) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"A256KW","enc":"A256GCM"}"#.utf8))
        let contentKey = SymmetricKey(data: [UInt8](repeating: 0x24, count: 32))
        // Wrapping a 256-bit key with a 256-bit key, and sealing with a 12-byte nonce, cannot fail.
        let wrapped = try! AES.KeyWrap.wrap(contentKey, using: decryptionKey)
        let nonce = try! AES.GCM.Nonce(data: [UInt8](repeating: 0x07, count: 12))
        let box = try! AES.GCM.seal(plaintext, using: contentKey, nonce: nonce, authenticating: Array(header.utf8))
        let parts = [Array(wrapped), Array(box.nonce), Array(box.ciphertext), Array(box.tag)].map(Base64URL.encode)
        return ([header] + parts).joined(separator: ".")
    }
}
