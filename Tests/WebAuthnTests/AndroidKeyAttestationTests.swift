import CBOR
import Crypto
import Foundation
import Testing
import X509

@testable import WebAuthn

/// `android-key` (§8.4): one test per reason a statement is refused, each a change to the real Pixel 8a vector.
@Suite("WebAuthn android-key: one test per rejection")
struct AndroidKeyAttestationTests {
    static let fixture = "registration-android-key-simplewebauthn"

    func registration() throws -> MutableRegistration { try MutableRegistration(Self.fixture) }

    /// The leaf with the one occurrence of `old` replaced by `new`.
    func patchingLeaf(_ old: [UInt8], _ new: [UInt8]) throws -> MutableRegistration {
        var registration = try registration()
        registration.certificates[0] = try TestCertificates.patch(registration.certificates[0], old, new)
        return registration
    }

    @Test func theUnchangedVectorVerifiesAndIsTrusted() async throws {
        let verified = try await registration().verify()
        #expect(verified.attestationType == .basic)
        #expect(verified.attestationTrusted)
    }

    @Test func missingSignature() async throws {
        var registration = try registration()
        registration["sig"] = nil
        await registration.expectInvalid("sig")
    }

    @Test func unsupportedAlgorithm() async throws {
        var registration = try registration()
        registration["alg"] = -36
        await registration.expectInvalid("alg")
    }

    @Test func algorithmOtherThanTheKeys() async throws {
        var registration = try registration()
        registration["alg"] = -257
        await registration.expectInvalid("signature does not verify")
    }

    @Test func missingCertificates() async throws {
        var registration = try registration()
        registration["x5c"] = nil
        await registration.expectInvalid("x5c")
    }

    @Test func tamperedSignature() async throws {
        var registration = try registration()
        var signature = try #require(registration["sig"]?.bytes)
        signature[signature.count / 2] ^= 0x01
        registration["sig"] = .byteString(signature)
        await registration.expectInvalid("signature does not verify")
    }

    @Test func tamperedAuthenticatorData() async throws {
        var registration = try registration()
        registration.tamperAuthData()
        await registration.expectInvalid("signature does not verify")
    }

    @Test func certificateKeyIsNotTheCredentialKey() async throws {
        var registration = try registration()
        let other = P256.Signing.PrivateKey()
        registration.certificates[0] = try TestCertificates.reissue(
            registration.certificates[0], publicKey: Certificate.PublicKey(other.publicKey))
        let signedData = registration.authData + (try registration.clientDataHash)
        registration["sig"] = .byteString(Array(try other.signature(for: signedData).derRepresentation))
        await registration.expectInvalid("not the credential public key")
    }

    @Test func noKeyDescription() async throws {
        var registration = try registration()
        registration.certificates[0] = try TestCertificates.reissue(
            registration.certificates[0], editing: TestCertificates.removing(AndroidKeyDescription.oid))
        await registration.expectInvalid("key description")
    }

    @Test func keyDescriptionThatIsNotAKeyDescription() async throws {
        // An empty SEQUENCE, without the eight members of a KeyDescription.
        var registration = try registration()
        registration.certificates[0] = try TestCertificates.reissue(registration.certificates[0]) { extensions in
            extensions.removeAll { $0.oid == AndroidKeyDescription.oid }
            extensions.append(
                Certificate.Extension(oid: AndroidKeyDescription.oid, critical: false, value: [0x30, 0x00]))
        }
        await registration.expectInvalid("key description")
    }

    @Test func challengeIsNotTheClientDataHash() async throws {
        // attestationChallenge: OCTET STRING (32 bytes) 5652E2DC…
        let registration = try patchingLeaf(
            [0x04, 0x20, 0x56, 0x52, 0xE2, 0xDC], [0x04, 0x20, 0x57, 0x52, 0xE2, 0xDC])
        await registration.expectInvalid("attestationChallenge")
    }

    @Test func allApplicationsInTEEEnforced() async throws {
        // teeEnforced's [504] INTEGER 3 retagged as [600] allApplications.
        let registration = try patchingLeaf(
            [0xBF, 0x83, 0x78, 0x03, 0x02, 0x01, 0x03], [0xBF, 0x84, 0x58, 0x03, 0x02, 0x01, 0x03])
        await registration.expectInvalid("all applications")
    }

    @Test func allApplicationsInSoftwareEnforced() async throws {
        // softwareEnforced's [701] creationDateTime retagged as [600] allApplications.
        let registration = try patchingLeaf(
            [0xBF, 0x85, 0x3D, 0x08, 0x02, 0x06], [0xBF, 0x84, 0x58, 0x08, 0x02, 0x06])
        await registration.expectInvalid("all applications")
    }

    @Test func originIsNotGenerated() async throws {
        // teeEnforced's [702] origin 0 (KM_ORIGIN_GENERATED) becomes 1 (KM_ORIGIN_DERIVED).
        let registration = try patchingLeaf(
            [0xBF, 0x85, 0x3E, 0x03, 0x02, 0x01, 0x00], [0xBF, 0x85, 0x3E, 0x03, 0x02, 0x01, 0x01])
        await registration.expectInvalid("origin")
    }

    @Test func purposeIsNotSign() async throws {
        // teeEnforced's [1] purpose SET { 2 } (KM_PURPOSE_SIGN) becomes SET { 3 } (KM_PURPOSE_VERIFY).
        let registration = try patchingLeaf(
            [0xA1, 0x05, 0x31, 0x03, 0x02, 0x01, 0x02], [0xA1, 0x05, 0x31, 0x03, 0x02, 0x01, 0x03])
        await registration.expectInvalid("purpose")
    }

    @Test func softwareEnforcedOnlyUnlessThePolicyAllowsIt() async throws {
        // Swap the two authorization lists, so that origin and purpose are only software-enforced.
        var registration = try registration()
        let leaf = registration.certificates[0]
        let software = try #require(Self.range(of: [0x30, 0x77, 0xBF, 0x85, 0x3D], length: 2 + 0x77, in: leaf))
        let tee = try #require(Self.range(of: [0x30, 0x81, 0xA9, 0xA1], length: 3 + 0xA9, in: leaf))
        #expect(software.upperBound == tee.lowerBound)
        registration.certificates[0] =
            Array(leaf[..<software.lowerBound]) + leaf[tee] + leaf[software] + Array(leaf[tee.upperBound...])
        await registration.expectInvalid("origin")
        registration.policy.androidKeyAllowsSoftwareEnforced = true
        let verified = try await registration.verify()
        #expect(verified.attestationType == .basic)
    }

    @Test func purposeInASequenceRatherThanASet() async throws {
        // teeEnforced's [1] purpose SET { 2 } becomes SEQUENCE { 2 }.
        let registration = try patchingLeaf(
            [0xA1, 0x05, 0x31, 0x03, 0x02, 0x01, 0x02], [0xA1, 0x05, 0x30, 0x03, 0x02, 0x01, 0x02])
        await registration.expectInvalid("the attestation certificate lacks a readable key description")
    }

    @Test func anExplicitTagAroundTwoValues() async throws {
        // teeEnforced's [1] purpose wraps an empty SET and an OCTET STRING instead of one SET.
        let registration = try patchingLeaf(
            [0xA1, 0x05, 0x31, 0x03, 0x02, 0x01, 0x02], [0xA1, 0x05, 0x31, 0x00, 0x04, 0x01, 0x00])
        await registration.expectInvalid("the attestation certificate lacks a readable key description")
    }

    private static func range(of prefix: [UInt8], length: Int, in bytes: [UInt8]) -> Range<Int>? {
        let start = (0...(bytes.count - prefix.count)).first { bytes[$0..<$0 + prefix.count].elementsEqual(prefix) }
        return start.map { $0..<$0 + length }
    }
}
