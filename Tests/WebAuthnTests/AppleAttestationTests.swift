import CBOR
import Crypto
import Foundation
import SwiftASN1
import Testing
import X509

@testable import WebAuthn

/// `apple` (§8.8): one test per reason a statement is refused, each a change to the real Apple vector.
@Suite("WebAuthn apple: one test per rejection")
struct AppleAttestationTests {
    static let fixture = "registration-apple-py_webauthn"

    func registration() throws -> MutableRegistration { try MutableRegistration(Self.fixture) }

    /// The vector with credCert replaced by `transform` of it.
    func editingCredCert(_ transform: ([UInt8]) throws -> [UInt8]) throws -> MutableRegistration {
        var registration = try registration()
        registration.certificates[0] = try transform(registration.certificates[0])
        return registration
    }

    @Test func theUnchangedVectorVerifiesAndIsTrusted() async throws {
        let verified = try await registration().verify()
        #expect(verified.attestationType == .anonCA)
        #expect(verified.attestationTrusted)
    }

    @Test func missingCertificates() async throws {
        var registration = try registration()
        registration["x5c"] = nil
        await registration.expectInvalid("x5c")
    }

    @Test func certificatesThatAreNotCertificates() async throws {
        var registration = try registration()
        registration["x5c"] = [.byteString([0x30, 0x00])]
        await registration.expectInvalid("x5c")
    }

    @Test func tamperedAuthenticatorData() async throws {
        var registration = try registration()
        registration.tamperAuthData()
        await registration.expectInvalid("nonce")
    }

    @Test func noNonceExtension() async throws {
        let registration = try editingCredCert {
            try TestCertificates.reissue($0, editing: TestCertificates.removing(AppleAttestation.nonceExtension))
        }
        await registration.expectInvalid("nonce")
    }

    @Test func nonceUnderAnotherTag() async throws {
        // SEQUENCE { [1] EXPLICIT OCTET STRING } becomes SEQUENCE { [2] EXPLICIT OCTET STRING }.
        let registration = try editingCredCert {
            try TestCertificates.patch($0, [0xA1, 0x22, 0x04, 0x20], [0xA2, 0x22, 0x04, 0x20])
        }
        await registration.expectInvalid("nonce")
    }

    @Test func nonceThatIsNotASequence() async throws {
        let registration = try editingCredCert {
            try TestCertificates.reissue($0) { extensions in
                let index = try #require(extensions.firstIndex { $0.oid == AppleAttestation.nonceExtension })
                let bare = try TestCertificates.der(ASN1OctetString(contentBytes: extensions[index].value))
                extensions[index] = Certificate.Extension(
                    oid: AppleAttestation.nonceExtension, critical: false, value: bare[...])
            }
        }
        await registration.expectInvalid("nonce")
    }

    @Test func certificateKeyIsNotTheCredentialKey() async throws {
        let other = Certificate.PublicKey(P256.Signing.PrivateKey().publicKey)
        let registration = try editingCredCert { try TestCertificates.reissue($0, publicKey: other) }
        await registration.expectInvalid("not the credential public key")
    }

    @Test func nonceInASetRatherThanASequence() async throws {
        // SEQUENCE { [1] EXPLICIT OCTET STRING } becomes SET { [1] EXPLICIT OCTET STRING }.
        let registration = try editingCredCert {
            try TestCertificates.patch($0, [0x30, 0x24, 0xA1, 0x22, 0x04, 0x20], [0x31, 0x24, 0xA1, 0x22, 0x04, 0x20])
        }
        await registration.expectInvalid(
            "credCert's nonce extension does not hold SHA-256(authenticatorData ‖ clientDataHash)")
    }
}
