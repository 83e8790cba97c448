import ByteEncoding
import Foundation
import Testing

@testable import WebAuthn

/// Real authenticator output and spec vectors, collected from public relying-party libraries (see Fixtures/README.md).
@Suite("WebAuthn: real authenticators and published vectors")
struct FixtureTests {
    /// What each format's real vector must prove.
    static let attestationTypes: [String: AttestationType] = [
        "android-key": .basic, "android-safetynet": .basic, "tpm": .attCA, "apple": .anonCA,
    ]

    /// Vectors that must be refused. SimpleWebAuthn's uses the placeholder id "bbb", which is not the credential ID
    /// in its authenticator data; Hale requires them to agree, or a client could register one ID and use another.
    /// ML-DSA-44 is not in swift-crypto, so its credentials are refused (MLDSAFixtureTests checks the message).
    /// Where the platform has no ML-DSA at all (Apple OSes before 26), ML-DSA-65 and ML-DSA-87 are refused too.
    static var expectedRejections: [String: WebAuthnError.Code] {
        var rejections: [String: WebAuthnError.Code] = [
            "registration-packed-self-simplewebauthn": .invalidCredentialID,
            "registration-none-mldsa44-py_webauthn": .unsupportedAlgorithm,
            "authentication-mldsa44-py_webauthn": .unsupportedAlgorithm,
        ]
        if !COSEAlgorithm.mlDSA65.isAvailable {
            for level in ["65", "87"] {
                rejections["registration-none-mldsa\(level)-py_webauthn"] = .unsupportedAlgorithm
                rejections["authentication-mldsa\(level)-py_webauthn"] = .unsupportedAlgorithm
            }
        }
        return rejections
    }

    @Test(arguments: try Fixture.all(kind: "registration"))
    func registration(_ fixture: Fixture) async throws {
        let verifier = RegistrationVerifier(relyingParty: try fixture.relyingParty, policy: try fixture.policy)
        let response = try fixture.registration()
        if let code = Self.expectedRejections[fixture.name] {
            await #expect(throws: WebAuthnError(code, "")) {
                try await verifier.verify(
                    response, expectedChallenge: fixture.challenge,
                    requireUserVerification: fixture.requireUserVerification, at: fixture.verifyAt)
            }
            return
        }
        let verified = try await verifier.verify(
            response, expectedChallenge: fixture.challenge,
            requireUserVerification: fixture.requireUserVerification, at: fixture.verifyAt)
        #expect(verified.format == fixture.format)
        if let type = fixture.format.flatMap({ Self.attestationTypes[$0] }) {
            #expect(verified.attestationType == type)
        }
        #expect(Base64URL.decode(response.id).map(Array.init) == verified.credentialID)
        if let id = fixture.expected["expectedCredentialID"] as? String {
            #expect(Base64URL.encode(verified.credentialID) == Base64URL.encode(Array(Base64URL.decode(id) ?? Data())))
        }
        if let count = fixture.expected["expectedSignCount"] as? Int {
            #expect(verified.signCount == UInt32(count))
        }
        if !fixture.rootsPEM.isEmpty {
            #expect(verified.attestationTrusted, "the chain leads to the fixture's root")
        }
        #expect(try COSEKey(bytes: verified.publicKey).algorithm == verified.algorithm)
    }

    @Test(arguments: try Fixture.all(kind: "authentication"))
    func authentication(_ fixture: Fixture) throws {
        let response = try fixture.authentication()
        let encodedKey = try #require(fixture.credentialPublicKey)
        let publicKey = Array(try #require(Base64URL.decode(encodedKey)))
        let flags = try AuthenticatorData(
            bytes: Array(try #require(Base64URL.decode(response.response.authenticatorData)))
        ).flags
        let credential = StoredCredential(
            id: Array(try #require(Base64URL.decode(response.id))), publicKey: publicKey,
            signCount: fixture.previousSignCount, backupEligible: flags.contains(.backupEligible))
        let verifier = AuthenticationVerifier(relyingParty: try fixture.relyingParty)
        if let code = Self.expectedRejections[fixture.name] {
            #expect(throws: WebAuthnError(code, "")) {
                try verifier.verify(
                    response, expectedChallenge: fixture.challenge, credential: credential,
                    requireUserVerification: fixture.requireUserVerification)
            }
            return
        }
        let verified = try verifier.verify(
            response, expectedChallenge: fixture.challenge, credential: credential,
            requireUserVerification: fixture.requireUserVerification)
        if let count = fixture.expected["expectedSignCount"] as? Int {
            #expect(verified.signCount == UInt32(count))
        }
    }

    @Test func everyFormatHasARealVector() throws {
        let formats = Set(try Fixture.all(kind: "registration").compactMap(\.format))
        #expect(formats.isSuperset(of: ["none", "packed", "fido-u2f"]))
        #expect(formats.isSuperset(of: Self.attestationTypes.keys))
        #expect(Set(RegistrationVerifier.supportedFormats) == formats)
    }
}
