import CBOR
import Crypto
import Foundation
import SwiftASN1
import Testing
import X509

@testable import WebAuthn

/// `tpm` (§8.3): one test per reason a statement is refused, each a change to the real Surface Pro 4 vector.
@Suite("WebAuthn tpm: one test per rejection")
struct TPMAttestationTests {
    static let fixture = "registration-tpm-py_webauthn"

    func registration() throws -> MutableRegistration { try MutableRegistration(Self.fixture) }

    /// The vector with `edit` applied to the bytes of the `member` of attStmt.
    func editing(_ member: String, _ edit: (inout [UInt8]) throws -> Void) throws -> MutableRegistration {
        var registration = try registration()
        var bytes = try #require(registration[member]?.bytes)
        try edit(&bytes)
        registration[member] = .byteString(bytes)
        return registration
    }

    /// The vector with its AIK certificate replaced by `transform` of it.
    func editingAIK(_ transform: ([UInt8]) throws -> [UInt8]) throws -> MutableRegistration {
        var registration = try registration()
        registration.certificates[0] = try transform(registration.certificates[0])
        return registration
    }

    @Test func theUnchangedVectorVerifiesAndIsTrusted() async throws {
        var registration = try registration()
        registration.policy.requireTrustedAttestation = true
        let verified = try await registration.verify()
        #expect(verified.attestationType == .attCA)
        #expect(verified.attestationTrusted)
        #expect(verified.algorithm == .rs256)
    }

    @Test func rs1IsNeverACredentialAlgorithm() {
        #expect(COSEAlgorithm(rawValue: -65535) == nil)
        let key: CBORValue = [
            1: 3, 3: -65535, -1: .byteString([UInt8](repeating: 0xC1, count: 256)), -2: .byteString([1, 0, 1]),
        ]
        #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) { try COSEKey(key) }
    }

    @Test func unsupportedVersion() async throws {
        var registration = try registration()
        registration["ver"] = "1.2"
        await registration.expectInvalid("ver")
    }

    @Test func missingVersion() async throws {
        var registration = try registration()
        registration["ver"] = nil
        await registration.expectInvalid("ver")
    }

    @Test func unsupportedAlgorithm() async throws {
        var registration = try registration()
        registration["alg"] = -8
        await registration.expectInvalid("alg")
    }

    @Test(arguments: ["sig", "certInfo", "pubArea"])
    func missingMember(_ member: String) async throws {
        var registration = try registration()
        registration[member] = nil
        await registration.expectInvalid("sig, certInfo and pubArea")
    }

    @Test func missingCertificates() async throws {
        var registration = try registration()
        registration["x5c"] = nil
        await registration.expectInvalid("x5c")
    }

    @Test func pubAreaIsAnotherKey() async throws {
        let registration = try editing("pubArea") { $0[$0.count - 1] ^= 0x02 }
        await registration.expectInvalid("another key")
    }

    @Test func pubAreaOfAnUnknownType() async throws {
        let registration = try editing("pubArea") { $0[1] = 0x25 }
        await registration.expectInvalid("neither an RSA nor an ECC key")
    }

    @Test func truncatedPubArea() async throws {
        let registration = try editing("pubArea") { $0.removeLast() }
        await registration.expectInvalid("pubArea is truncated")
    }

    @Test func pubAreaNamedWithAnUnsupportedHash() async throws {
        // nameAlg TPM_ALG_SHA256 becomes TPM_ALG_SM3_256.
        let registration = try editing("pubArea") { $0[3] = 0x12 }
        await registration.expectInvalid("nameAlg")
    }

    @Test func pubAreaWithTrailingBytes() async throws {
        let registration = try editing("pubArea") { $0.append(0) }
        await registration.expectInvalid("trailing bytes")
    }

    @Test func wrongMagic() async throws {
        let registration = try editing("certInfo") { $0[0] ^= 0x01 }
        await registration.expectInvalid("TPM_GENERATED_VALUE")
    }

    @Test func wrongType() async throws {
        // TPM_ST_ATTEST_QUOTE instead of TPM_ST_ATTEST_CERTIFY.
        let registration = try editing("certInfo") { $0[5] = 0x18 }
        await registration.expectInvalid("TPM_ST_ATTEST_CERTIFY")
    }

    @Test func extraDataIsNotTheHash() async throws {
        // extraData follows magic, type and the 34-byte qualifiedSigner, after its own size.
        let registration = try editing("certInfo") { $0[44] ^= 0x01 }
        await registration.expectInvalid("extraData")
    }

    @Test func tamperedAuthenticatorData() async throws {
        var registration = try registration()
        registration.tamperAuthData()
        await registration.expectInvalid("extraData")
    }

    @Test func extraDataHashedWithAnotherAlgorithmThanAlg() async throws {
        // alg RS256 says SHA-256; this TPM hashed with SHA-1 for RS1.
        var registration = try registration()
        registration["alg"] = -257
        await registration.expectInvalid("extraData")
    }

    @Test func attestedNameIsNotPubArea() async throws {
        let registration = try editing("certInfo") { $0[120] ^= 0x01 }
        await registration.expectInvalid("does not name pubArea")
    }

    @Test func attestedWithTrailingBytes() async throws {
        let registration = try editing("certInfo") { $0.append(0) }
        await registration.expectInvalid("certInfo.attested has trailing bytes")
    }

    @Test func truncatedCertInfo() async throws {
        let registration = try editing("certInfo") { $0.removeLast() }
        await registration.expectInvalid("truncated")
    }

    @Test func tamperedSignature() async throws {
        let registration = try editing("sig") { $0[100] ^= 0x01 }
        await registration.expectInvalid("sig does not verify")
    }

    @Test func aikCertificateOfVersion1() async throws {
        let registration = try editingAIK { try TestCertificates.reissue($0, version: .v1) }
        await registration.expectInvalid("not version 3")
    }

    @Test func aikCertificateWithASubject() async throws {
        let subject = try DistinguishedName { CommonName("TPM") }
        let registration = try editingAIK { try TestCertificates.reissue($0, subject: subject) }
        await registration.expectInvalid("subject is not empty")
    }

    @Test func aikCertificateWithoutASubjectAlternativeName() async throws {
        let registration = try editingAIK {
            try TestCertificates.reissue(
                $0, editing: TestCertificates.removing(.X509ExtensionID.subjectAlternativeName))
        }
        await registration.expectInvalid("subject alternative name")
    }

    @Test func aikCertificateWithoutTheTPMModel() async throws {
        // tcg-at-tpmModel 2.23.133.2.2 becomes 2.23.133.2.9 in the SAN's directoryName.
        let registration = try editingAIK {
            try TestCertificates.patch(
                $0, [0x06, 0x05, 0x67, 0x81, 0x05, 0x02, 0x02], [0x06, 0x05, 0x67, 0x81, 0x05, 0x02, 0x09])
        }
        await registration.expectInvalid("lacks the TPM")
    }

    @Test func aikCertificateWithoutTheAIKUsage() async throws {
        // tcg-kp-AIKCertificate 2.23.133.8.3 becomes 2.23.133.8.4 in the extended key usage.
        let registration = try editingAIK {
            try TestCertificates.patch(
                $0, [0x06, 0x05, 0x67, 0x81, 0x05, 0x08, 0x03], [0x06, 0x05, 0x67, 0x81, 0x05, 0x08, 0x04])
        }
        await registration.expectInvalid("extended key usage")
    }

    @Test func aikCertificateThatIsACA() async throws {
        let registration = try editingAIK {
            try TestCertificates.reissue($0) { extensions in
                extensions.removeAll { $0.oid == .X509ExtensionID.basicConstraints }
                extensions.append(
                    try Certificate.Extension(
                        BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true))
            }
        }
        await registration.expectInvalid("is a CA")
    }

    @Test func aikCertificateWithoutBasicConstraints() async throws {
        let registration = try editingAIK {
            try TestCertificates.reissue($0, editing: TestCertificates.removing(.X509ExtensionID.basicConstraints))
        }
        await registration.expectInvalid("no readable basic constraints")
    }

    @Test func aikCertificateWithUnreadableBasicConstraints() async throws {
        // A NULL where the BasicConstraints SEQUENCE belongs.
        let registration = try editingAIK {
            try TestCertificates.reissue($0) { extensions in
                extensions.removeAll { $0.oid == .X509ExtensionID.basicConstraints }
                extensions.append(
                    Certificate.Extension(oid: .X509ExtensionID.basicConstraints, critical: true, value: [0x05, 0x00]))
            }
        }
        await registration.expectInvalid("no readable basic constraints")
    }

    @Test func aikCertificateForAnotherAAGUID() async throws {
        let registration = try editingAIK {
            try TestCertificates.reissue($0) { extensions in
                let otherAAGUID = try TestCertificates.der(
                    ASN1OctetString(contentBytes: [UInt8](repeating: 0x42, count: 16)[...]))
                extensions.append(
                    Certificate.Extension(
                        oid: CertificateChain.aaguidExtension, critical: false, value: otherAAGUID[...]))
            }
        }
        await registration.expectInvalid("AAGUID")
    }

    /// The vector's AIK re-issued by a CA of our own, whose own extensions `caExtensions` adds to, under a root of our
    /// own that the policy requires the chain to lead to.
    func chainedToOurRoot(caExtensions: [Certificate.Extension]) throws -> MutableRegistration {
        let rootKey = P256.Signing.PrivateKey()
        let caKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("Test TPM Root") }
        let caName = try DistinguishedName { CommonName("Test TPM CA") }
        let root = try Self.authority(rootName, key: rootKey.publicKey, issuer: rootName, issuerKey: rootKey)
        let ca = try Self.authority(caName, key: caKey.publicKey, issuer: rootName, issuerKey: rootKey, caExtensions)
        var registration = try registration()
        registration.certificates = [
            try TestCertificates.reissue(
                registration.certificates[0], issuer: caName, issuerKey: caKey,
                editing: TestCertificates.removing(.X509ExtensionID.authorityKeyIdentifier)),
            try TestCertificates.der(ca),
        ]
        registration.policy = AttestationPolicy(trustAnchors: [root], requireTrustedAttestation: true)
        return registration
    }

    static func authority(
        _ name: DistinguishedName, key: P256.Signing.PublicKey, issuer: DistinguishedName,
        issuerKey: P256.Signing.PrivateKey, _ extra: [Certificate.Extension] = []
    ) throws -> Certificate {
        var extensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            Critical(KeyUsage(keyCertSign: true))
        }
        for item in extra { try extensions.append(item) }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key),
            notValidBefore: Date(timeIntervalSince1970: 1_500_000_000),
            notValidAfter: Date(timeIntervalSince1970: 1_900_000_000), issuer: issuer, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: Certificate.PrivateKey(issuerKey))
    }

    @Test func theAIKsCriticalExtensionsAreTrustedOnTheAIKOnly() async throws {
        // The AIK's critical SAN and certificate policies do not stop its chain from validating…
        let verified = try await chainedToOurRoot(caExtensions: []).verify()
        #expect(verified.attestationTrusted)
        // …but either of them marked critical on its CA does. certificatePolicies: SEQUENCE { SEQUENCE { anyPolicy } }.
        let anyPolicy: [UInt8] = [0x30, 0x08, 0x30, 0x06, 0x06, 0x04, 0x55, 0x1D, 0x20, 0x00]
        let criticalOnCA = [
            try Certificate.Extension(SubjectAlternativeNames([.dnsName("ca.example")]), critical: true),
            Certificate.Extension(oid: TPMAttestation.certificatePolicies, critical: true, value: anyPolicy[...]),
        ]
        for caExtension in criticalOnCA {
            let registration = try chainedToOurRoot(caExtensions: [caExtension])
            await #expect(throws: WebAuthnError(.untrustedAttestation, "")) { try await registration.verify() }
        }
    }

    /// An ECC pubArea: TPM_ALG_ECC, SHA-256 names, no policy, no symmetric or signing scheme, `curve`, no KDF, then
    /// the point.
    static func eccPubArea(curve: UInt16, x: [UInt8], y: [UInt8]) -> [UInt8] {
        func uint16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
        func sized(_ bytes: [UInt8]) -> [UInt8] { uint16(UInt16(bytes.count)) + bytes }
        return uint16(TPMAlgorithm.ecc) + uint16(TPMAlgorithm.sha256) + [0x00, 0x06, 0x04, 0x72] + sized([])
            + uint16(TPMAlgorithm.null) + uint16(TPMAlgorithm.null) + uint16(curve) + uint16(TPMAlgorithm.null)
            + sized(x) + sized(y)
    }

    @Test func anECCPubAreaMatchesOnlyItsOwnP256Key() throws {
        let key = P256.Signing.PrivateKey().publicKey
        let point = Array(key.x963Representation)
        let (x, y) = (Array(point[1...32]), Array(point[33...64]))
        func matches(curve: UInt16 = TPMAlgorithm.curveNISTP256, x: [UInt8], y: [UInt8]) throws -> Bool {
            try TPMPublicArea(bytes: Self.eccPubArea(curve: curve, x: x, y: y)).matches(.p256(key))
        }
        #expect(try matches(x: x, y: y))
        #expect(try !matches(curve: 0x0004, x: x, y: y), "the same coordinates on P-384")
        #expect(try !matches(x: y, y: x))
        // A coordinate longer than P-256's is another key, not an index past the padding.
        #expect(try !matches(x: [0x01] + x, y: y))
        #expect(try !matches(x: x, y: [0x01] + y))
    }
}
