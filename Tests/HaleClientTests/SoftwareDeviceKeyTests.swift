import Crypto
import Foundation
import HaleClient
import Testing

@Suite("A software device key")
struct SoftwareDeviceKeyTests {
    private let challenge = "c2VydmVyLWNoYWxsZW5nZQ"

    @Test("Its public key PEM has the iOS client's shape")
    func publicKeyPEMShape() {
        let lines = SoftwareDeviceKey().publicKeyPEM.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "-----BEGIN PUBLIC KEY-----")
        #expect(lines.last == "-----END PUBLIC KEY-----")
        #expect(lines.dropFirst().dropLast().map(\.count) == [64, 60])
    }

    @Test("Its public key PEM carries its DER SubjectPublicKeyInfo")
    func publicKeyPEMContent() throws {
        let key = SoftwareDeviceKey()
        let parsed = try P256.Signing.PublicKey(pemRepresentation: key.publicKeyPEM)
        #expect(Array(parsed.derRepresentation) == key.publicKeyDER)
        #expect(parsed.rawRepresentation == key.privateKey.publicKey.rawRepresentation)
    }

    @Test("It loads from a raw private key")
    func loadsRaw() throws {
        let original = SoftwareDeviceKey()
        let loaded = try SoftwareDeviceKey(rawRepresentation: Array(original.privateKey.rawRepresentation))
        #expect(loaded.publicKeyPEM == original.publicKeyPEM)
    }

    @Test("It loads from a PEM private key")
    func loadsPEM() throws {
        let original = SoftwareDeviceKey()
        let loaded = try SoftwareDeviceKey(pemRepresentation: original.privateKey.pemRepresentation)
        #expect(loaded.publicKeyDER == original.publicKeyDER)
    }

    @Test("It refuses a raw key of the wrong length")
    func refusesShortRawKey() {
        #expect(throws: (any Error).self) { try SoftwareDeviceKey(rawRepresentation: [1, 2, 3]) }
    }

    @Test("Android convention: ECDSA over the challenge's UTF-8 bytes, DER, padded base64")
    func signsLikeAndroid() throws {
        let key = SoftwareDeviceKey()
        let signature = try derSignature(key.sign(challenge: challenge, convention: .android))
        #expect(key.privateKey.publicKey.isValidSignature(signature, for: Array(challenge.utf8)))
    }

    @Test("iOS convention: ECDSA over the SHA-256 digest of the challenge, hashed again")
    func signsLikeIOS() throws {
        let key = SoftwareDeviceKey()
        let signature = try derSignature(key.sign(challenge: challenge, convention: .iOS))
        let digest = Array(SHA256.hash(data: Array(challenge.utf8)))
        #expect(key.privateKey.publicKey.isValidSignature(signature, for: digest))
        #expect(!key.privateKey.publicKey.isValidSignature(signature, for: Array(challenge.utf8)))
    }

    private func derSignature(_ base64: String) throws -> P256.Signing.ECDSASignature {
        let bytes = try #require(Data(base64Encoded: base64))
        #expect(bytes.base64EncodedString() == base64)
        return try P256.Signing.ECDSASignature(derRepresentation: bytes)
    }
}
