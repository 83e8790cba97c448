import ByteEncoding
import Foundation
import Testing

@testable import WebAuthn

/// py_webauthn 3.0.1's ML-DSA vectors, made on webauthn.io: each credential registered, then used to sign in with the
/// public key Hale stored from its own registration.
@Suite("WebAuthn: ML-DSA credentials from py_webauthn's vectors")
struct MLDSAFixtureTests {
    static let parameterSets: [(level: String, algorithm: COSEAlgorithm, keyLength: Int, signCount: UInt32)] = [
        ("65", .mlDSA65, 1952, 5), ("87", .mlDSA87, 2592, 4),
    ]

    @Test(.mlDSAAvailable, arguments: parameterSets.map(\.level))
    func registerThenSignIn(level: String) async throws {
        let expected = try #require(Self.parameterSets.first { $0.level == level })
        let registration = try Fixture.named("registration-none-mldsa\(level)-py_webauthn")
        let verified = try await RegistrationVerifier(relyingParty: try registration.relyingParty).verify(
            try registration.registration(), expectedChallenge: registration.challenge, requireUserVerification: true,
            at: registration.verifyAt)
        #expect(verified.algorithm == expected.algorithm)
        #expect(verified.format == "none")
        #expect(verified.attestationType == AttestationType.none)
        guard case .mlDSA(let key) = try COSEKey(bytes: verified.publicKey) else {
            Issue.record("not an ML-DSA key")
            return
        }
        #expect(key.rawRepresentation.count == expected.keyLength)

        let signIn = try Fixture.named("authentication-mldsa\(level)-py_webauthn")
        #expect(Base64URL.encode(verified.publicKey) == signIn.credentialPublicKey, "the key signs in as registered")
        let stored = StoredCredential(
            id: verified.credentialID, publicKey: verified.publicKey, signCount: signIn.previousSignCount,
            backupEligible: verified.backupEligible)
        let assertion = try signIn.authentication()
        let authenticated = try AuthenticationVerifier(relyingParty: try signIn.relyingParty).verify(
            assertion, expectedChallenge: signIn.challenge, credential: stored, requireUserVerification: true)
        #expect(authenticated.signCount == expected.signCount)
        #expect(authenticated.userHandle == Array("webauthnio-ml-dsa-\(level)".utf8))
    }

    @Test(.mlDSAAvailable, arguments: parameterSets.map(\.level))
    func aSignatureOverOtherDataIsRefused(level: String) throws {
        let signIn = try Fixture.named("authentication-mldsa\(level)-py_webauthn")
        var assertion = try signIn.authentication()
        var data = Array(try #require(Base64URL.decode(assertion.response.authenticatorData)))
        data[36] ^= 0x01
        assertion.response.authenticatorData = Base64URL.encode(data)
        let stored = try storedCredential(signIn)
        let error = #expect(throws: WebAuthnError(.invalidSignature, "")) {
            try AuthenticationVerifier(relyingParty: try signIn.relyingParty).verify(
                assertion, expectedChallenge: signIn.challenge, credential: stored, requireUserVerification: false)
        }
        #expect(error?.message == "the signature does not verify")
    }

    @Test func anMLDSA44RegistrationIsRefusedAsUnsupported() async throws {
        let registration = try Fixture.named("registration-none-mldsa44-py_webauthn")
        let verifier = RegistrationVerifier(relyingParty: try registration.relyingParty)
        let error = await #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) {
            try await verifier.verify(
                try registration.registration(), expectedChallenge: registration.challenge,
                requireUserVerification: false, at: registration.verifyAt)
        }
        #expect(error?.message == "ML-DSA-44 (-48) is not supported: swift-crypto does not implement it")
    }

    @Test func anMLDSA44AssertionIsRefusedAsUnsupported() throws {
        let signIn = try Fixture.named("authentication-mldsa44-py_webauthn")
        let stored = try storedCredential(signIn)
        let error = #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) {
            try AuthenticationVerifier(relyingParty: try signIn.relyingParty).verify(
                try signIn.authentication(), expectedChallenge: signIn.challenge, credential: stored,
                requireUserVerification: false)
        }
        #expect(error?.message == "ML-DSA-44 (-48) is not supported: swift-crypto does not implement it")
    }

    private func storedCredential(_ fixture: Fixture) throws -> StoredCredential {
        let encodedKey = try #require(fixture.credentialPublicKey)
        return StoredCredential(
            id: Array(try #require(Base64URL.decode(try fixture.authentication().id))),
            publicKey: Array(try #require(Base64URL.decode(encodedKey))), signCount: fixture.previousSignCount,
            backupEligible: false)
    }
}
