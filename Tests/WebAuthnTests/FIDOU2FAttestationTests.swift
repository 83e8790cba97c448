import CBOR
import Testing

@testable import WebAuthn

/// `fido-u2f` (§8.6): one test per reason a statement is refused, each a change to the real U2F vector.
@Suite("WebAuthn fido-u2f: one test per rejection")
struct FIDOU2FAttestationTests {
    func registration() throws -> MutableRegistration { try MutableRegistration("registration-fido-u2f-py_webauthn") }

    @Test func theUnchangedVectorVerifies() async throws {
        #expect(try await registration().verify().attestationType == .basic)
    }

    @Test func missingSignature() async throws {
        var registration = try registration()
        registration["sig"] = nil
        await registration.expectInvalid("attStmt needs a sig")
    }

    @Test func twoCertificates() async throws {
        var registration = try registration()
        registration.certificates += [registration.certificates[0]]
        await registration.expectInvalid("x5c must hold one certificate with a P-256 key")
    }

    /// The last byte of s changed: still strict DER, no longer the signature.
    @Test func tamperedSignature() async throws {
        var registration = try registration()
        var signature = try #require(registration["sig"]?.bytes)
        signature[signature.count - 1] ^= 0x01
        registration["sig"] = .byteString(signature)
        await registration.expectInvalid("the signature does not verify with the attestation certificate")
    }

    @Test func aSignatureThatIsNotDER() async throws {
        var registration = try registration()
        registration["sig"] = .byteString([0x30, 0x00])
        await registration.expectInvalid("the signature does not verify with the attestation certificate")
    }
}
