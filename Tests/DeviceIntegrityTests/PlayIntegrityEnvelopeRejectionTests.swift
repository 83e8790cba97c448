import Crypto
import DeviceIntegrity
import Foundation
import Testing

/// One test per reason the JWE or the JWS inside it is refused.
@Suite("Play Integrity: one test per envelope rejection")
struct PlayIntegrityEnvelopeRejectionTests {
    let maker = TestPlayIntegrity()

    /// The maker's token with part `index` replaced by `transform` of it.
    func token(editingPart index: Int, _ transform: (String) -> String) throws -> String {
        var parts = try maker.jweParts()
        parts[index] = transform(parts[index])
        return parts.joined(separator: ".")
    }

    /// Flips a bit of the first byte a base64url part encodes.
    static func flipped(_ part: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let index = alphabet.firstIndex(of: part.first!)!
        return String(alphabet[index ^ 0b10_0000]) + part.dropFirst()
    }

    @Test func anotherKeyWrapAlgorithm() {
        var maker = self.maker
        maker.jweHeader = #"{"alg":"RSA-OAEP-256","enc":"A256GCM"}"#
        expectPlayRejection(.wrongAlgorithm) { _ = try maker.verify() }
    }

    @Test func anotherContentEncryption() {
        var maker = self.maker
        maker.jweHeader = #"{"alg":"A256KW","enc":"A128GCM"}"#
        expectPlayRejection(.wrongAlgorithm) { _ = try maker.verify() }
    }

    @Test func anExtraHeaderMember() {
        var maker = self.maker
        maker.jweHeader = #"{"alg":"A256KW","enc":"A256GCM","zip":"DEF"}"#
        expectPlayRejection(.wrongAlgorithm) { _ = try maker.verify() }
    }

    @Test func tamperedTag() throws {
        let token = try token(editingPart: 4, Self.flipped)
        expectPlayRejection(.decryptionFailed) { _ = try maker.verify(token) }
    }

    @Test func tamperedCiphertext() throws {
        let token = try token(editingPart: 3, Self.flipped)
        expectPlayRejection(.decryptionFailed) { _ = try maker.verify(token) }
    }

    @Test func tamperedEncryptedKey() throws {
        let token = try token(editingPart: 1, Self.flipped)
        expectPlayRejection(.decryptionFailed) { _ = try maker.verify(token) }
    }

    @Test func headerChangedAfterEncryption() throws {
        let respaced = TestPlayIntegrity.base64URL(Array(#"{"alg":"A256KW", "enc":"A256GCM"}"#.utf8))
        let token = try token(editingPart: 0) { _ in respaced }
        expectPlayRejection(.decryptionFailed) { _ = try maker.verify(token) }
    }

    @Test func wrongDecryptionKey() throws {
        var maker = self.maker
        let token = try maker.token()
        maker.decryptionKey = SymmetricKey(size: .bits256)
        expectPlayRejection(.decryptionFailed) { _ = try maker.verify(token) }
    }

    @Test func wrongVerificationKey() throws {
        var other = maker
        other.signingKey = P256.Signing.PrivateKey()
        let token = try other.token()
        expectPlayRejection(.badSignature) { _ = try maker.verify(token) }
    }

    @Test func jwsSignatureBitFlip() throws {
        let jws = try maker.jws()
        var signature = Array(jws.split(separator: ".")[2])
        signature[0] = signature[0] == "A" ? "B" : "A"
        let tampered = jws.split(separator: ".")[0...1].joined(separator: ".") + "." + String(signature)
        expectPlayRejection(.badSignature) { _ = try maker.verify(try encrypting(tampered)) }
    }

    @Test func anotherSignatureAlgorithm() {
        var maker = self.maker
        maker.jwsHeader = #"{"alg":"HS256"}"#
        expectPlayRejection(.wrongAlgorithm) { _ = try maker.verify() }
    }

    @Test func notFiveParts() throws {
        let token = try maker.token()
        expectPlayRejection(.malformed) { _ = try maker.verify(token.split(separator: ".").dropLast().joined()) }
        expectPlayRejection(.malformed) { _ = try maker.verify(token + ".AAAA") }
        expectPlayRejection(.malformed) { _ = try maker.verify(try maker.jws()) }
    }

    @Test func partsOfTheWrongSize() throws {
        let sizes = [(1, 32), (2, 16), (4, 15)]  // the wrapped key is 40 bytes, the IV 12, the tag 16
        for (part, size) in sizes {
            let token = try token(editingPart: part) { _ in
                TestPlayIntegrity.base64URL(Array(repeating: 7, count: size))
            }
            expectPlayRejection(.malformed) { _ = try maker.verify(token) }
        }
    }

    @Test func aJWSOfFourParts() {
        var maker = self.maker
        maker.afterJWS = ".AAAA"
        expectPlayRejection(.malformed) { _ = try maker.verify() }
    }

    @Test func aCriticalHeader() {
        var maker = self.maker
        maker.jwsHeader = #"{"alg":"ES256","crit":["exp"],"exp":1}"#
        expectPlayRejection(.wrongAlgorithm) { _ = try maker.verify() }
    }

    @Test func badBase64() throws {
        let token = try token(editingPart: 2) { $0 + "=" }
        expectPlayRejection(.malformed) { _ = try maker.verify(token) }
        let header = try self.token(editingPart: 0) { "*" + $0 }
        expectPlayRejection(.malformed) { _ = try maker.verify(header) }
    }

    @Test func badJSON() {
        var maker = self.maker
        maker.payloadBytes = Array("{\"requestDetails\":".utf8)
        expectPlayRejection(.malformed) { _ = try maker.verify() }
        maker.payloadBytes = Array("{}".utf8)
        expectPlayRejection(.malformed) { _ = try maker.verify() }
        maker.payloadBytes = nil
        maker.jweHeader = "not json"
        expectPlayRejection(.malformed) { _ = try maker.verify() }
    }

    /// `jws` sealed in a JWE with the maker's decryption key.
    func encrypting(_ jws: String) throws -> String {
        let header = TestPlayIntegrity.base64URL(Array(maker.jweHeader.utf8))
        let contentKey = SymmetricKey(size: .bits256)
        let wrapped = try AES.KeyWrap.wrap(contentKey, using: maker.decryptionKey)
        let box = try AES.GCM.seal(Array(jws.utf8), using: contentKey, authenticating: Array(header.utf8))
        return
            ([header, TestPlayIntegrity.base64URL(Array(wrapped))]
            + [Array(box.nonce), Array(box.ciphertext), Array(box.tag)].map(TestPlayIntegrity.base64URL))
            .joined(separator: ".")
    }
}
