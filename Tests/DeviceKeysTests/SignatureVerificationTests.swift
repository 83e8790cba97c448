import Crypto
import DeviceKeys
import Foundation
import Testing

@Suite("Challenge signatures the documented clients make")
struct SignatureVerificationTests {
    private let challenge = "dGhlLXNlcnZlci1jaGFsbGVuZ2UtMTIzNDU2Nzg5MA"
    private let p256 = try! DevicePublicKey(pemRepresentation: ClientPEM.androidNative(Fixtures.p256DER))
    private let rsa = try! DevicePublicKey(pemRepresentation: ClientPEM.reactNative(Fixtures.rsaDER))

    @Test("Android native: SHA256withECDSA over the challenge's UTF-8 bytes")
    func androidNative() throws {
        let signature = try ClientSignature.androidNative(challenge)
        #expect(try p256.verify(signature: signature, challenge: challenge) == .ecdsaSHA256)
    }

    @Test("iOS native: ECDSA over the SHA-256 digest of the challenge, hashed again by the Security framework")
    func iOSNative() throws {
        let signature = try ClientSignature.iOSNative(challenge)
        #expect(try p256.verify(signature: signature, challenge: challenge) == .ecdsaSHA256OfSHA256Digest)
    }

    @Test("React Native on iOS: ecdsaSignatureMessageX962SHA256 over the payload, like Android")
    func reactNativeIOS() throws {
        let key = try DevicePublicKey(pemRepresentation: ClientPEM.reactNative(Fixtures.p256DER))
        let signature = try ClientSignature.androidNative(challenge)
        #expect(try key.verify(signature: signature, challenge: challenge) == .ecdsaSHA256)
    }

    @Test("React Native on Android: SHA256withRSA, PKCS #1 v1.5, although the app declares ES256")
    func reactNativeAndroid() throws {
        let signature = try ClientSignature.reactNativeAndroid(challenge)
        #expect(try rsa.verify(signature: signature, challenge: challenge) == .rsaPKCS1v15SHA256)
    }

    @Test("Base64 without its = padding", arguments: [false, true])
    func unpadded(iOS: Bool) throws {
        let padded = try signatureWithPadding {
            try iOS ? ClientSignature.iOSNative($0) : ClientSignature.androidNative($0)
        }
        let convention = try p256.verify(signature: padded.filter { $0 != "=" }, challenge: challenge)
        #expect(convention == (iOS ? .ecdsaSHA256OfSHA256Digest : .ecdsaSHA256))
    }

    @Test("A high-S ECDSA signature, which Android and iOS may produce")
    func highS() throws {
        let signature = try Fixtures.p256Key.signature(for: Array(challenge.utf8))
        let highS = ECDSASignatureDER.withHighS(Array(signature.rawRepresentation))
        let convention = try p256.verify(signature: Data(highS).base64EncodedString(), challenge: challenge)
        #expect(convention == .ecdsaSHA256)
    }

    @Test("Non-ASCII challenges are signed as UTF-8")
    func utf8Challenge() throws {
        let challenge = "défi-✓-🔑"
        let signature = try ClientSignature.androidNative(challenge)
        #expect(try p256.verify(signature: signature, challenge: challenge) == .ecdsaSHA256)
    }

    /// A signature whose base64 ends in padding: DER ECDSA signatures vary in length, and a third of them need none.
    private func signatureWithPadding(_ sign: (String) throws -> String) throws -> String {
        for _ in 0..<64 {
            let signature = try sign(challenge)
            if signature.hasSuffix("=") { return signature }
        }
        throw CancellationError()
    }
}
