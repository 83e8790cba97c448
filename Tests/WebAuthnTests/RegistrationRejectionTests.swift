import ByteEncoding
import CBOR
import Crypto
import Foundation
import HaleClient
import Testing

@testable import WebAuthn

/// §7.1: one test per reason a registration is refused.
@Suite("WebAuthn registration: one test per rejection")
struct RegistrationRejectionTests {
    let authenticator = SoftwarePasskey()
    let challenge: [UInt8] = Array("registration-challenge-0123456789".utf8)

    private func verify(
        _ response: RegistrationResponseJSON, requireUserVerification: Bool = false,
        policy: AttestationPolicy = .acceptAny, relyingParty: RelyingParty? = nil
    ) async throws -> VerifiedRegistration {
        let verifier = RegistrationVerifier(
            relyingParty: try relyingParty ?? authenticator.relyingParty, policy: policy)
        return try await verifier.verify(
            response, expectedChallenge: challenge, requireUserVerification: requireUserVerification,
            at: Date(timeIntervalSince1970: 1_790_000_000))
    }

    private func expect(_ code: WebAuthnError.Code, _ response: RegistrationResponseJSON) async {
        await #expect(throws: WebAuthnError(code, "")) { try await verify(response) }
    }

    @Test func aWellFormedRegistrationVerifies() async throws {
        for format in ["none", "packed"] {
            let verified = try await verify(authenticator.registration(challenge: challenge, format: format))
            #expect(verified.credentialID == authenticator.credentialID)
            #expect(verified.attestationType == (format == "none" ? .none : .self))
            #expect(verified.userVerified)
            #expect(verified.algorithm == .es256)
            #expect(verified.aaguid == "00000000-0000-0000-0000-000000000000")
        }
    }

    @Test func wrongType() async {
        var response = authenticator.registration(challenge: challenge)
        response.type = "password"
        await expect(.malformedCredential, response)
    }

    @Test func clientDataNotBase64URL() async {
        var response = authenticator.registration(challenge: challenge)
        response.response.clientDataJSON = "not base64url!"
        await expect(.invalidBase64URL, response)
    }

    @Test func clientDataNotJSON() async {
        await expect(
            .malformedClientData, authenticator.registration(challenge: challenge, clientData: Array("{".utf8)))
    }

    @Test func wrongCeremony() async {
        let clientData = authenticator.clientData(type: "webauthn.get", challenge: challenge)
        await expect(.wrongCeremonyType, authenticator.registration(challenge: challenge, clientData: clientData))
    }

    @Test func wrongChallenge() async {
        let clientData = authenticator.clientData(type: "webauthn.create", challenge: Array("other".utf8))
        await expect(.challengeMismatch, authenticator.registration(challenge: challenge, clientData: clientData))
    }

    @Test func wrongOrigin() async {
        let clientData = authenticator.clientData(
            type: "webauthn.create", challenge: challenge, origin: "https://evil.example")
        await expect(.originNotAllowed, authenticator.registration(challenge: challenge, clientData: clientData))
    }

    @Test func crossOriginFrame() async {
        let clientData = authenticator.clientData(
            type: "webauthn.create", challenge: challenge, extra: ["crossOrigin": true])
        await expect(.crossOriginNotAllowed, authenticator.registration(challenge: challenge, clientData: clientData))
    }

    @Test func attestationObjectNotCBOR() async {
        var response = authenticator.registration(challenge: challenge)
        response.response.attestationObject = Base64URL.encode([0xFF, 0x00])
        await expect(.malformedAttestationObject, response)
    }

    @Test func attestationObjectTooDeep() async {
        var nested: CBORValue = [:]
        for _ in 0..<40 { nested = .array([nested]) }
        var response = authenticator.registration(challenge: challenge)
        response.response.attestationObject = Base64URL.encode(CBOREncoder().encode(nested))
        await expect(.malformedAttestationObject, response)
    }

    @Test func authenticatorDataTruncated() async {
        let data = Array(authenticator.authenticatorData(attested: true).prefix(40))
        await expect(
            .malformedAuthenticatorData, authenticator.registration(challenge: challenge, authenticatorData: data))
    }

    @Test func authenticatorDataWithTrailingBytes() async {
        let data = authenticator.authenticatorData(attested: true) + [0x00]
        await expect(
            .malformedAuthenticatorData, authenticator.registration(challenge: challenge, authenticatorData: data))
    }

    @Test func anotherRelyingParty() async {
        let data = authenticator.authenticatorData(rpID: "evil.example", attested: true)
        await expect(.rpIDHashMismatch, authenticator.registration(challenge: challenge, authenticatorData: data))
    }

    @Test func userNotPresent() async {
        let data = authenticator.authenticatorData(flags: [.userVerified], attested: true)
        await expect(.userNotPresent, authenticator.registration(challenge: challenge, authenticatorData: data))
    }

    @Test func userNotVerifiedWhenRequired() async throws {
        let data = authenticator.authenticatorData(flags: [.userPresent], attested: true)
        let response = authenticator.registration(challenge: challenge, authenticatorData: data)
        await #expect(throws: WebAuthnError(.userNotVerified, "")) {
            try await verify(response, requireUserVerification: true)
        }
        // The positive control: the same response verifies when verification is not required.
        #expect(try await verify(response, requireUserVerification: false).userVerified == false)
    }

    @Test func backedUpButNotEligible() async {
        let data = authenticator.authenticatorData(flags: [.userPresent, .backupState], attested: true)
        await expect(.invalidBackupFlags, authenticator.registration(challenge: challenge, authenticatorData: data))
    }

    @Test func noCredentialData() async {
        let data = authenticator.authenticatorData()
        await expect(.missingCredentialData, authenticator.registration(challenge: challenge, authenticatorData: data))
    }

    @Test func idDiffersFromTheAttestedCredential() async {
        var response = authenticator.registration(challenge: challenge)
        response.id = Base64URL.encode([1, 2, 3])
        response.rawId = response.id
        await expect(.invalidCredentialID, response)
    }

    @Test func idAndRawIdDiffer() async {
        var response = authenticator.registration(challenge: challenge)
        response.rawId = Base64URL.encode([1, 2, 3])
        await expect(.invalidCredentialID, response)
    }

    @Test func malformedPublicKey() async {
        let key: CBORValue = [1: 2, 3: -7, -1: 1, -2: .byteString([1, 2, 3]), -3: .byteString([4, 5, 6])]
        let data = authenticator.authenticatorData(attested: true, publicKey: key)
        await expect(.invalidPublicKey, authenticator.registration(challenge: challenge, authenticatorData: data))
    }

    @Test func keyOfAnUnsupportedAlgorithm() async {
        let key: CBORValue = [1: 2, 3: -36, -1: 3, -2: .byteString([1]), -3: .byteString([2])]
        let data = authenticator.authenticatorData(attested: true, publicKey: key)
        await expect(.unsupportedAlgorithm, authenticator.registration(challenge: challenge, authenticatorData: data))
    }

    @Test func algorithmThatWasNotOffered() async throws {
        let onlyEdDSA = try RelyingParty(
            id: authenticator.rpID, name: "Example", origins: [authenticator.origin], algorithms: [.edDSA])
        let response = authenticator.registration(challenge: challenge)
        await #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) {
            try await verify(response, relyingParty: onlyEdDSA)
        }
    }

    @Test func unknownFormat() async {
        await expect(
            .unsupportedAttestationFormat, authenticator.registration(challenge: challenge, format: "homemade"))
    }

    @Test func noneWithAStatement() async {
        let response = authenticator.registration(
            challenge: challenge, format: "none", statement: ["sig": .byteString([1])])
        await expect(.invalidAttestation, response)
    }

    @Test func packedWithABadSignature() async {
        let statement: CBORValue = ["alg": -7, "sig": .byteString(authenticator.sign([0x00]))]
        await expect(
            .invalidAttestation,
            authenticator.registration(challenge: challenge, format: "packed", statement: statement))
    }

    /// The signature is a valid self attestation (over authData and the client data's hash), so only the
    /// algorithm check can refuse it.
    @Test func packedSelfWithAnotherAlgorithm() async throws {
        let data = authenticator.authenticatorData(attested: true)
        let clientData = authenticator.clientData(type: "webauthn.create", challenge: challenge)
        let signature = authenticator.sign(data + Array(SHA256.hash(data: clientData)))
        let valid: CBORValue = ["alg": -7, "sig": .byteString(signature)]
        let control = authenticator.registration(
            challenge: challenge, format: "packed", clientData: clientData, authenticatorData: data, statement: valid)
        #expect(try await verify(control).attestationType == .self)
        let statement: CBORValue = ["alg": -257, "sig": .byteString(signature)]
        let response = authenticator.registration(
            challenge: challenge, format: "packed", clientData: clientData, authenticatorData: data,
            statement: statement)
        let error = await #expect(throws: WebAuthnError(.invalidAttestation, "")) { try await verify(response) }
        #expect(error?.message == "packed: alg differs from the credential's algorithm")
    }

    @Test func packedWithAnX5cThatIsNotACertificate() async {
        let statement: CBORValue = ["alg": -7, "sig": .byteString([1]), "x5c": [.byteString([0x30, 0x00])]]
        let response = authenticator.registration(challenge: challenge, format: "packed", statement: statement)
        let error = await #expect(throws: WebAuthnError(.invalidAttestation, "")) { try await verify(response) }
        #expect(error?.message == "packed: x5c holds something other than a certificate")
    }

    @Test func moreThanEightTransports() async {
        var response = authenticator.registration(challenge: challenge)
        response.response.transports = Array(repeating: "internal", count: 9)
        let error = await #expect(throws: WebAuthnError(.malformedCredential, "")) { try await verify(response) }
        #expect(error?.message == "response.transports lists at most 8 transports")
    }

    @Test func exactlyEightTransportsAreRead() async throws {
        var response = authenticator.registration(challenge: challenge)
        response.response.transports = Array(repeating: "internal", count: 8)
        #expect(try await verify(response).transports == ["internal"])
    }

    @Test func anAttestationStatementThatIsNotAMap() async {
        var response = authenticator.registration(challenge: challenge, format: "none")
        let object: CBORValue = [
            "fmt": "none", "attStmt": .array([]),
            "authData": .byteString(authenticator.authenticatorData(attested: true)),
        ]
        response.response.attestationObject = Base64URL.encode(CBOREncoder().encode(object))
        let error = await #expect(throws: WebAuthnError(.malformedAttestationObject, "")) {
            try await verify(response)
        }
        #expect(error?.message == "the attestation object lacks fmt, attStmt or authData")
    }

    @Test func anEmptyCredentialID() {
        let error = #expect(throws: WebAuthnError(.invalidCredentialID, "")) {
            try Base64URL.credentialID(id: "", rawId: "", type: "public-key")
        }
        #expect(error?.message == "the credential ID is empty")
    }

    @Test func unknownTransportsAreIgnoredAndRepeatsKeptOnce() async throws {
        var response = authenticator.registration(challenge: challenge)
        response.response.transports = ["hybrid", "teleport", "internal", "usb,nfc", "hybrid", "smart-card"]
        #expect(try await verify(response).transports == ["hybrid", "internal", "smart-card"])
    }

    @Test func untrustedWhenTrustIsRequired() async {
        let response = authenticator.registration(challenge: challenge)
        await #expect(throws: WebAuthnError(.untrustedAttestation, "")) {
            try await verify(response, policy: AttestationPolicy(requireTrustedAttestation: true))
        }
    }
}
