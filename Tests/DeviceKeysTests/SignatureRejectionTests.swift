import Crypto
import DeviceKeys
import Foundation
import Testing

@Suite("Challenge signatures that are refused, one test per reason")
struct SignatureRejectionTests {
    private let challenge = "server-challenge-0001"
    private let p256 = try! DevicePublicKey(derRepresentation: Fixtures.p256DER)
    private let rsa = try! DevicePublicKey(derRepresentation: Fixtures.rsaDER)

    @Test("Android native, over a different challenge")
    func androidOtherChallenge() throws {
        let signature = try ClientSignature.androidNative("another-challenge")
        expectRejection("SIGNATURE_MISMATCH") { _ = try p256.verify(signature: signature, challenge: challenge) }
    }

    @Test("iOS native, over a different challenge")
    func iOSOtherChallenge() throws {
        let signature = try ClientSignature.iOSNative("another-challenge")
        expectRejection("SIGNATURE_MISMATCH") { _ = try p256.verify(signature: signature, challenge: challenge) }
    }

    @Test("React Native on Android, over a different challenge")
    func reactNativeOtherChallenge() throws {
        let signature = try ClientSignature.reactNativeAndroid("another-challenge")
        expectRejection("SIGNATURE_MISMATCH") { _ = try rsa.verify(signature: signature, challenge: challenge) }
    }

    @Test("A signature by another key")
    func otherKey() throws {
        let signature = try ClientSignature.androidNative(challenge, key: P256.Signing.PrivateKey())
        expectRejection("SIGNATURE_MISMATCH") { _ = try p256.verify(signature: signature, challenge: challenge) }
    }

    @Test("An RSA-PSS signature, which no documented client makes")
    func rsaPSS() throws {
        let signature = try Fixtures.rsaKey.signature(for: Array(challenge.utf8), padding: .PSS).rawRepresentation
        let text = Data(signature).base64EncodedString()
        expectRejection("SIGNATURE_MISMATCH") { _ = try rsa.verify(signature: text, challenge: challenge) }
    }

    @Test("The base64url alphabet")
    func base64URL() throws {
        let signature = try signature(where: { $0.contains("+") || $0.contains("/") })
        let urlSafe = signature.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        expectRejection("SIGNATURE_BASE64URL") { _ = try p256.verify(signature: urlSafe, challenge: challenge) }
    }

    @Test("Line breaks, as Base64.DEFAULT would write them")
    func whitespace() throws {
        let signature = try ClientSignature.androidNative(challenge)
        let wrapped = String(signature.prefix(76)) + "\n" + signature.dropFirst(76) + "\n"
        expectRejection("SIGNATURE_WHITESPACE") { _ = try p256.verify(signature: wrapped, challenge: challenge) }
    }

    @Test("Characters outside any base64 alphabet")
    func notBase64() {
        expectRejection("INVALID_SIGNATURE_BASE64") { _ = try p256.verify(signature: "MEUCIQ*=", challenge: challenge) }
    }

    @Test("Padding in the middle")
    func misplacedPadding() {
        expectRejection("INVALID_SIGNATURE_BASE64") { _ = try p256.verify(signature: "ME==UCIQ", challenge: challenge) }
    }

    @Test("A length no base64 encoder produces")
    func impossibleLength() {
        expectRejection("INVALID_SIGNATURE_BASE64") { _ = try p256.verify(signature: "MEUCI", challenge: challenge) }
    }

    @Test("A valid signature with a character after its padding, or unused bits set: one encoding per signature")
    func nonCanonicalBase64() throws {
        let text = try signature(where: { $0.hasSuffix("==") })
        #expect(throws: Never.self) { try p256.verify(signature: text, challenge: challenge) }
        let afterPadding = String(text.dropLast()) + "A"
        expectRejection("INVALID_SIGNATURE_BASE64") {
            _ = try p256.verify(signature: afterPadding, challenge: challenge)
        }
        // The character before `==` carries two bits of the last byte and four unused ones, which must be zero.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        let last = text.dropLast(2).last!
        let unusedBitSet = String(text.dropLast(3)) + String(alphabet[alphabet.firstIndex(of: last)! + 1]) + "=="
        expectRejection("INVALID_SIGNATURE_BASE64") {
            _ = try p256.verify(signature: unusedBitSet, challenge: challenge)
        }
    }

    @Test("An ECDSA signature as raw r‖s")
    func rawECDSA() throws {
        let raw = try Fixtures.p256Key.signature(for: Array(challenge.utf8)).rawRepresentation
        let text = raw.base64EncodedString()
        expectRejection("RAW_ECDSA_SIGNATURE") { _ = try p256.verify(signature: text, challenge: challenge) }
    }

    @Test("An ECDSA signature that is not DER")
    func nonDER() {
        let text = Data(repeating: 0x5A, count: 70).base64EncodedString()
        expectRejection("MALFORMED_SIGNATURE") { _ = try p256.verify(signature: text, challenge: challenge) }
    }

    @Test("A DER ECDSA signature followed by an extra byte")
    func trailingByte() throws {
        let der = try Fixtures.p256Key.signature(for: Array(challenge.utf8)).derRepresentation + [0]
        let text = der.base64EncodedString()
        expectRejection("MALFORMED_SIGNATURE") { _ = try p256.verify(signature: text, challenge: challenge) }
    }

    @Test("An RSA signature one byte short")
    func rsaWrongLength() throws {
        let signature = Data(try ClientSignature.reactNativeAndroid(challenge).dataFromBase64().dropLast())
        let text = signature.base64EncodedString()
        #expect(throws: DeviceKeyError.wrongSignatureLength(expected: 256, actual: 255)) {
            try rsa.verify(signature: text, challenge: challenge)
        }
    }

    @Test("An ECDSA signature for an RSA key")
    func ecdsaForRSAKey() throws {
        let signature = try ClientSignature.androidNative(challenge)
        expectRejection("WRONG_SIGNATURE_LENGTH") { _ = try rsa.verify(signature: signature, challenge: challenge) }
    }

    @Test("An empty signature")
    func empty() {
        expectRejection("EMPTY_SIGNATURE") { _ = try p256.verify(signature: "", challenge: challenge) }
    }

    @Test("A signature of 1025 bytes")
    func tooLarge() {
        let text = Data(repeating: 0x30, count: 1025).base64EncodedString()
        expectRejection("SIGNATURE_TOO_LARGE") { _ = try rsa.verify(signature: text, challenge: challenge) }
    }

    @Test("A signature of exactly 1024 bytes, the largest, passes the size checks and fails only as a signature")
    func largestSize() {
        let text = Data(repeating: 0x30, count: 1024).base64EncodedString()
        #expect(text.utf8.count == DevicePublicKey.maximumSignatureTextLength)
        expectRejection("WRONG_SIGNATURE_LENGTH") { _ = try rsa.verify(signature: text, challenge: challenge) }
    }

    @Test("A signature text far longer than any signature")
    func hugeText() {
        let text = String(repeating: "A", count: 100_000)
        expectRejection("SIGNATURE_TOO_LARGE") { _ = try rsa.verify(signature: text, challenge: challenge) }
    }

    /// An Android signature whose text satisfies `condition`.
    private func signature(where condition: (String) -> Bool) throws -> String {
        for _ in 0..<64 {
            let signature = try ClientSignature.androidNative(challenge)
            if condition(signature) { return signature }
        }
        throw CancellationError()
    }
}

extension String {
    fileprivate func dataFromBase64() -> Data {
        Data(base64Encoded: self) ?? Data()
    }
}
