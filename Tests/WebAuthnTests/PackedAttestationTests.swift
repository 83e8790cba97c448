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
}
