import SwiftASN1
import Testing
import X509

@testable import WebAuthn

/// `packed` with `x5c` (§8.2): the attestation certificate's requirements, each a change to a real vector.
@Suite("WebAuthn packed: certificate requirements")
struct PackedAttestationTests {
    func editingCertificate(_ transform: ([UInt8]) throws -> [UInt8]) throws -> MutableRegistration {
        var registration = try MutableRegistration("registration-packed-x5c-py_webauthn")
        registration.certificates[0] = try transform(registration.certificates[0])
        return registration
    }

    @Test func theUnchangedVectorVerifies() async throws {
        _ = try await MutableRegistration("registration-packed-x5c-py_webauthn").verify()
    }

    @Test func certificateThatIsACA() async throws {
        let registration = try editingCertificate {
            try TestCertificates.reissue($0) { extensions in
                extensions.removeAll { $0.oid == .X509ExtensionID.basicConstraints }
                extensions.append(
                    try Certificate.Extension(
                        BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true))
            }
        }
        await registration.expectInvalid("is a CA")
    }

    @Test func certificateWithUnreadableBasicConstraints() async throws {
        // A NULL where the BasicConstraints SEQUENCE belongs.
        let registration = try editingCertificate {
            try TestCertificates.reissue($0) { extensions in
                extensions.removeAll { $0.oid == .X509ExtensionID.basicConstraints }
                extensions.append(
                    Certificate.Extension(oid: .X509ExtensionID.basicConstraints, critical: true, value: [0x05, 0x00]))
            }
        }
        await registration.expectInvalid("no readable basic constraints")
    }

    @Test func chainLongerThanFiveCertificates() async throws {
        var registration = try MutableRegistration("registration-packed-x5c-py_webauthn")
        registration.certificates += Array(repeating: registration.certificates[0], count: 5)
        await registration.expectInvalid("x5c holds at most 5 certificates")
    }

    @Test func chainOfNotCertificatesLongerThanFiveIsRefusedBeforeParsing() async throws {
        var registration = try MutableRegistration("registration-packed-x5c-py_webauthn")
        registration.certificates = Array(repeating: [0x30, 0x00], count: 6)
        await registration.expectInvalid("x5c holds at most 5 certificates")
    }

    @Test func aTamperedAuthenticatorDataFailsTheCertificatesSignature() async throws {
        var registration = try MutableRegistration("registration-packed-x5c-py_webauthn")
        registration.tamperAuthData()
        await registration.expectInvalid("the signature does not verify with the attestation certificate")
    }

    @Test func anEmptyChain() async throws {
        var registration = try MutableRegistration("registration-packed-x5c-py_webauthn")
        registration.certificates = []
        await registration.expectInvalid("x5c must be a non-empty array")
    }

    @Test func certificateOfVersion1() async throws {
        let registration = try editingCertificate { try TestCertificates.reissue($0, version: .v1) }
        await registration.expectInvalid("the attestation certificate is not version 3")
    }

    @Test func certificateOfAnotherOrganizationalUnit() async throws {
        let registration = try editingCertificate {
            try TestCertificates.reissue(
                $0,
                subject: try DistinguishedName {
                    CountryName("US")
                    OrganizationName("Example")
                    OrganizationalUnitName("Authenticator Certification")
                    CommonName("Example attestation")
                })
        }
        await registration.expectInvalid(#"the attestation certificate's OU is not "Authenticator Attestation""#)
    }

    @Test func aCriticalAAGUIDExtension() async throws {
        var registration = try MutableRegistration("registration-packed-x5c-py_webauthn")
        let aaguid = Array(registration.authData[37..<53])
        let value = try TestCertificates.der(ASN1OctetString(contentBytes: aaguid[...]))
        registration.certificates[0] = try TestCertificates.reissue(registration.certificates[0]) { extensions in
            extensions.removeAll { $0.oid == CertificateChain.aaguidExtension }
            extensions.append(
                Certificate.Extension(oid: CertificateChain.aaguidExtension, critical: false, value: value[...]))
        }
        _ = try await registration.verify()  // the positive control: the same extension, not critical
        registration.certificates[0] = try TestCertificates.reissue(registration.certificates[0]) { extensions in
            extensions.removeAll { $0.oid == CertificateChain.aaguidExtension }
            extensions.append(
                Certificate.Extension(oid: CertificateChain.aaguidExtension, critical: true, value: value[...]))
        }
        await registration.expectInvalid("the attestation certificate names another AAGUID")
    }

    @Test func trustRequiredWithNoAnchorsConfigured() async throws {
        var registration = try MutableRegistration("registration-packed-x5c-py_webauthn")
        registration.policy.requireTrustedAttestation = true
        registration.policy.trustAnchors = []
        let error = await #expect(throws: WebAuthnError(.untrustedAttestation, "")) { try await registration.verify() }
        #expect(error?.message == "a trusted attestation is required")
    }
}
