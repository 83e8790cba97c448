import DeviceKeys
import HaleClient
import Testing

@Suite("SoftwareDeviceKey's output verifies with DeviceKeys")
struct SoftwareDeviceKeyCrossCheckTests {
    private let softwareKey = SoftwareDeviceKey()
    private let challenge = "cross-check-challenge"

    @Test("Its public key PEM parses as the P-256 key it holds")
    func publicKey() throws {
        let key = try DevicePublicKey(pemRepresentation: softwareKey.publicKeyPEM)
        #expect(key.kind == .p256)
        #expect(key.derRepresentation == softwareKey.publicKeyDER)
        #expect(key.pemRepresentation == softwareKey.publicKeyPEM)
    }

    @Test("Each of its conventions verifies and is reported as such")
    func conventions() throws {
        let key = try DevicePublicKey(pemRepresentation: softwareKey.publicKeyPEM)
        let android = try softwareKey.sign(challenge: challenge, convention: .android)
        let iOS = try softwareKey.sign(challenge: challenge, convention: .iOS)
        #expect(try key.verify(signature: android, challenge: challenge) == .ecdsaSHA256)
        #expect(try key.verify(signature: iOS, challenge: challenge) == .ecdsaSHA256OfSHA256Digest)
    }

    @Test("Its signature over another challenge does not verify")
    func otherChallenge() throws {
        let key = try DevicePublicKey(pemRepresentation: softwareKey.publicKeyPEM)
        let signature = try softwareKey.sign(challenge: "another", convention: .iOS)
        expectRejection("SIGNATURE_MISMATCH") { _ = try key.verify(signature: signature, challenge: challenge) }
    }
}
