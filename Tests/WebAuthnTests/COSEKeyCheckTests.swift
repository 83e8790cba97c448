import ByteEncoding
import CBOR
import Crypto
import Foundation
import Testing
import _CryptoExtras

@testable import WebAuthn

/// Checks that only a key or signature built for them reaches, each with the reason it must give: what mutation
/// testing (`scripts/mutate WebAuthn`) found that no other test noticed removed.
@Suite("WebAuthn: COSE keys and DER signatures, check by check")
struct COSEKeyCheckTests {
    static let point = Array(P256.Signing.PrivateKey().publicKey.x963Representation)
    static let x = Array(point[1...32])
    static let y = Array(point[33...64])

    static func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try COSEKey(bytes: bytes)
            return nil
        } catch {
            return error.message
        }
    }

    static func refusal(_ value: CBORValue) -> String? {
        refusal(CBOREncoder().encode(value))
    }

    @Test func theCanonicalLayoutWithAnotherLabelForY() {
        let canonical: [UInt8] =
            [0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20] + Self.x + [0x22, 0x58, 0x20] + Self.y
        #expect(Self.refusal(canonical) == nil)
        var relabelled = canonical
        relabelled[42] = 0x23  // -4, not -3: no y at all
        #expect(Self.refusal(relabelled) == "an ES256 key must be on P-256 with 32-byte x and y")
    }

    @Test func p256CoordinatesOfOtherLengths() {
        let longX: CBORValue = [1: 2, 3: -7, -1: 1, -2: .byteString([0] + Self.x), -3: .byteString(Self.y)]
        #expect(Self.refusal(longX) == "an ES256 key must be on P-256 with 32-byte x and y")
        let longY: CBORValue = [1: 2, 3: -7, -1: 1, -2: .byteString(Self.x), -3: .byteString([0] + Self.y)]
        #expect(Self.refusal(longY) == "an ES256 key must be on P-256 with 32-byte x and y")
    }

    @Test func anOKPKeyOnAnotherCurve() {
        let x = Array(Curve25519.Signing.PrivateKey().publicKey.rawRepresentation)
        let ed25519: CBORValue = [1: 1, 3: -8, -1: 6, -2: .byteString(x)]
        #expect(Self.refusal(ed25519) == nil)
        let ed448: CBORValue = [1: 1, 3: -8, -1: 7, -2: .byteString(x)]
        #expect(Self.refusal(ed448) == "an EdDSA key must be Ed25519 with a 32-byte x")
        #expect(Self.refusal(.array([1, 2])) == "the public key lacks kty or alg")
    }

    @Test func strictDERSignatures() {
        let one = [UInt8](repeating: 0, count: 31) + [1]
        #expect(ECDSASignatureDER.rawP256([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]) == one + one)
        #expect(ECDSASignatureDER.rawP256([]) == nil)
        #expect(ECDSASignatureDER.rawP256([0x30]) == nil)
        #expect(ECDSASignatureDER.rawP256([0x30, 0x06, 0x02, 0x04, 1, 2, 3, 4]) == nil, "one integer")
        #expect(ECDSASignatureDER.rawP256([0x30, 0x06, 0x02, 0x00, 0x02, 0x02, 0x01, 0x01]) == nil, "an empty one")
        #expect(ECDSASignatureDER.rawP256([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x05, 0x01]) == nil, "past the end")
        #expect(ECDSASignatureDER.rawP256([0x30, 0x06, 0x03, 0x01, 0x01, 0x02, 0x01, 0x01]) == nil, "not an INTEGER")
        #expect(ECDSASignatureDER.rawP256([0x30, 0x06, 0x02, 0x01, 0x80, 0x02, 0x01, 0x01]) == nil, "a negative one")
        let zero = [UInt8](repeating: 0, count: 32)
        #expect(
            ECDSASignatureDER.rawP256([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x00]) == one + zero, "s = 0, last")
    }

    /// An RS256 key's size is counted in significant bits, before swift-crypto (which refuses short keys too) sees it.
    @Test func rsaKeysOfAtLeast2048Bits() throws {
        let primitives = try _RSA.Signing.PrivateKey(keySize: .bits2048).publicKey.getKeyPrimitives()
        let modulus = Array(primitives.modulus)
        let exponent = Array(primitives.publicExponent)
        func rsa(_ modulus: [UInt8]) -> CBORValue {
            [1: 3, 3: -257, -1: .byteString(modulus), -2: .byteString(exponent)]
        }
        #expect(modulus.count == 256 && modulus[0] >= 0x80)
        #expect(Self.refusal(rsa(modulus)) == nil)
        #expect(Self.refusal(rsa([0] + modulus)) == nil, "a leading zero byte is not a bit")
        var short = modulus
        short[0] = 0x7F  // 2047 bits
        #expect(Self.refusal(rsa(short)) == "RSA keys shorter than 2048 bits are not accepted")
        #expect(Self.refusal(rsa([0] + short)) == "RSA keys shorter than 2048 bits are not accepted")
        #expect(Self.refusal(rsa([])) == "RSA keys shorter than 2048 bits are not accepted")
    }

    @Test func hexOfEvenLengthOnly() {
        #expect(Hex.decode("0aFf") == [0x0A, 0xFF])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }
}
