import Crypto
import DeviceIntegrity
import Foundation
import Testing

/// Tokens that verify, and the primitive they rest on.
@Suite("Play Integrity: tokens that verify")
struct PlayIntegrityTests {
    @Test func aValidTokenVerifies() throws {
        let maker = TestPlayIntegrity()
        let verdict = try maker.verify()
        #expect(verdict.app == maker.app)
        #expect(verdict.requestPackageName == "com.example.health")
        #expect(verdict.nonce == TestPlayIntegrity.nonce)
        #expect(verdict.requestHash == nil)
        #expect(verdict.timestamp == TestPlayIntegrity.referenceTime - 10)
        #expect(verdict.appRecognitionVerdict == "PLAY_RECOGNIZED")
        #expect(verdict.certificateSha256Digests == [TestPlayIntegrity.digest])
        #expect(verdict.deviceRecognitionVerdicts == ["MEETS_DEVICE_INTEGRITY"])
        #expect(verdict.appLicensingVerdict == "LICENSED")
        #expect(verdict.versionCode == "42")
    }

    @Test func aStandardRequestMatchesByRequestHash() throws {
        var maker = TestPlayIntegrity()
        maker.set("requestDetails", "nonce", nil)
        maker.set("requestDetails", "requestHash", TestPlayIntegrity.nonce)
        #expect(try maker.verify().requestHash == TestPlayIntegrity.nonce)
    }

    @Test func aNumericTimestampAndARequiredLicenceAreAccepted() throws {
        var maker = TestPlayIntegrity()
        maker.set("requestDetails", "timestampMillis", 1_749_999_999_000)
        var policy = PlayIntegrityPolicy()
        policy.licensingVerdicts = ["LICENSED"]
        #expect(try maker.verify(policy: policy).timestamp == TestPlayIntegrity.referenceTime - 1)
    }

    @Test func paddedConfiguredDigestsMatch() throws {
        var maker = TestPlayIntegrity()
        maker.app.certificateDigests = [TestPlayIntegrity.digest + "="]
        _ = try maker.verify()
    }

    /// RFC 3394 §4.6: a 256-bit key wrapped with a 256-bit KEK, as A256KW uses it.
    @Test func aesKeyWrapMatchesRFC3394() throws {
        let kek = SymmetricKey(data: Array(0x00...0x1F) as [UInt8])
        let wrapped = try hex("28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21")
        let key = try AES.KeyWrap.unwrap(wrapped, using: kek)
        let expected = try hex("00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F")
        #expect(key.withUnsafeBytes { Array($0) } == expected)
        #expect(Array(try AES.KeyWrap.wrap(key, using: kek)) == wrapped)
    }

    @Test func unusableConfiguration() throws {
        let maker = TestPlayIntegrity()
        let key = maker.signingKey.publicKey.derRepresentation.base64EncodedString()
        expectPlayRejection(.invalidConfiguration) {
            _ = try PlayIntegrityVerifier(decryptionKey: "c2hvcnQ=", verificationKey: key, apps: [maker.app])
        }
        expectPlayRejection(.invalidConfiguration) {
            _ = try PlayIntegrityVerifier(decryptionKey: key, verificationKey: "bm90IGEga2V5", apps: [maker.app])
        }
        let aesKey = maker.decryptionKey.withUnsafeBytes { Data($0).base64EncodedString() }
        _ = try PlayIntegrityVerifier(decryptionKey: aesKey, verificationKey: key, apps: [maker.app])
        expectPlayRejection(.invalidConfiguration) {
            _ = try PlayIntegrityVerifier(decryptionKey: aesKey, verificationKey: key, apps: [])
        }
    }

    private func hex(_ text: String) throws -> [UInt8] {
        let digits = Array(text.utf8)
        return try stride(from: 0, to: digits.count, by: 2).map {
            try #require(UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16))
        }
    }
}
