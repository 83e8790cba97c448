import Crypto
import Foundation
import Testing
import _CryptoExtras

@testable import DeviceKeys

/// Finding a signer from its signature alone: P-256 keys recovered from an ECDSA signature (at most two per
/// convention), RSA signatures told apart by their length, and the arithmetic under it.
@Suite("Device keys: the signer of a signature, found from it")
struct SignatureLookupTests {
    private func thumbprint(_ key: P256.Signing.PrivateKey) throws -> String {
        try DevicePublicKey(derRepresentation: Array(key.publicKey.derRepresentation)).thumbprint
    }

    @Test func everyClientsP256SignatureNamesItsKeyAmongAtMostFour() throws {
        for round in 0..<100 {
            let key = P256.Signing.PrivateKey()
            let challenge = "challenge-\(round)-\(UUID().uuidString)"
            for signature in [
                try ClientSignature.androidNative(challenge, key: key),
                try ClientSignature.iOSNative(challenge, key: key),
            ] {
                guard case .p256(let thumbprints) = DevicePublicKey.lookup(signature: signature, challenge: challenge)
                else {
                    Issue.record("not read as ECDSA")
                    return
                }
                #expect(thumbprints.contains(try thumbprint(key)), "round \(round)")
                #expect((1...4).contains(thumbprints.count))
            }
        }
    }

    @Test func aSignatureOverAnotherChallengeNamesOtherKeys() throws {
        let key = Fixtures.p256Key
        let signature = try ClientSignature.androidNative("the challenge")
        guard case .p256(let thumbprints) = DevicePublicKey.lookup(signature: signature, challenge: "another") else {
            Issue.record("not read as ECDSA")
            return
        }
        #expect(!thumbprints.contains(try thumbprint(key)))
    }

    @Test func anRSASignatureIsLookedUpByItsLength() throws {
        let signature = try ClientSignature.reactNativeAndroid("challenge")
        #expect(DevicePublicKey.lookup(signature: signature, challenge: "challenge") == .rsa(modulusBytes: 256))
        #expect(DevicePublicKey.SignatureLookup.rsaBits(modulusBytes: 256) == 2041...2048)
    }

    @Test(arguments: ["", "not base64!", Data(repeating: 1, count: 64).base64EncodedString(), "AAAA"])
    func neitherIsNothing(signature: String) {
        #expect(DevicePublicKey.lookup(signature: signature, challenge: "c") == .none)
    }

    @Test func theFieldArithmeticInvertsAndMultiplies() throws {
        for modulus in [P256KeyRecovery.prime, P256KeyRecovery.order] {
            for _ in 0..<200 {
                let bytes = (0..<32).map { _ in UInt8.random(in: 0...255) }
                let a = modulus.reduced(try #require(UInt256(bigEndian: bytes)))
                guard !a.isZero else { continue }
                let inverse = try #require(modulus.inverse(a))
                #expect(modulus.multiply(a, inverse) == .one)
                #expect(modulus.add(a, modulus.negate(a)) == .zero)
                #expect(modulus.subtract(modulus.add(a, inverse), inverse) == a)
            }
            #expect(modulus.inverse(.zero) == nil)
            let minusOne = modulus.m.subtracting(.one).0
            #expect(modulus.multiply(minusOne, minusOne) == .one, "(-1)² = 1")
        }
        // 2 · 2⁻¹ over the prime, by hand: (p + 1) / 2.
        let half = try #require(P256KeyRecovery.prime.inverse(UInt256(w0: 2, w1: 0, w2: 0, w3: 0)))
        #expect(half == P256KeyRecovery.prime.m.adding(.one).0.halved())
        #expect(
            UInt256(bigEndian: Array(repeating: 0xAB, count: 32))?.bigEndianBytes == Array(repeating: 0xAB, count: 32))
    }
}
