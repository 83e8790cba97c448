import ByteEncoding
import Foundation
import HaleClient
import Testing

@testable import WebAuthn

/// §7.2: one test per reason a sign-in is refused, and the tolerance real clients need.
@Suite("WebAuthn authentication: one test per rejection")
struct AuthenticationRejectionTests {
    let authenticator = SoftwarePasskey()
    let challenge: [UInt8] = Array("authentication-challenge-0123456789".utf8)

    private func verify(
        _ response: AuthenticationResponseJSON, stored: StoredCredential? = nil, requireUserVerification: Bool = false
    ) throws -> VerifiedAuthentication {
        try AuthenticationVerifier(relyingParty: try authenticator.relyingParty).verify(
            response, expectedChallenge: challenge, credential: stored ?? authenticator.stored(),
            requireUserVerification: requireUserVerification)
    }

    private func expect(
        _ code: WebAuthnError.Code, _ response: AuthenticationResponseJSON, stored: StoredCredential? = nil,
        requireUserVerification: Bool = false
    ) {
        #expect(throws: WebAuthnError(code, "")) {
            try verify(response, stored: stored, requireUserVerification: requireUserVerification)
        }
    }

    @Test func aWellFormedAssertionVerifies() throws {
        let verified = try verify(
            authenticator.assertion(challenge: challenge, signCount: 5), stored: authenticator.stored(signCount: 4))
        #expect(verified.signCount == 5)
        #expect(verified.userVerified)
        #expect(verified.userHandle == nil)
    }

    @Test func aCredentialWithoutACounterMayStayAtZero() throws {
        let verified = try verify(
            authenticator.assertion(challenge: challenge, signCount: 0), stored: authenticator.stored(signCount: 0))
        #expect(verified.signCount == 0)
    }

    @Test func extraClientDataMembersAreIgnored() throws {
        let clientData = authenticator.clientData(
            type: "webauthn.get", challenge: challenge,
            extra: [
                "other_keys_can_be_added_here": "do not compare clientDataJSON against a template",
                "crossOrigin": false,
            ])
        _ = try verify(authenticator.assertion(challenge: challenge, clientData: clientData))
    }

    @Test func paddedBase64URLIsAccepted() throws {
        var response = authenticator.assertion(challenge: challenge, userHandle: [1, 2, 3, 4])
        for keyPath in [\AuthenticationResponseJSON.Response.clientDataJSON, \.authenticatorData, \.signature] {
            let text = response.response[keyPath: keyPath]
            response.response[keyPath: keyPath] = text + String(repeating: "=", count: (4 - text.count % 4) % 4)
        }
        #expect(try verify(response).userHandle == [1, 2, 3, 4])
    }

    @Test func anotherCredential() {
        expect(.invalidCredentialID, SoftwarePasskey().assertion(challenge: challenge))
    }

    @Test func wrongCeremony() {
        let clientData = authenticator.clientData(type: "webauthn.create", challenge: challenge)
        expect(.wrongCeremonyType, authenticator.assertion(challenge: challenge, clientData: clientData))
    }

    @Test func wrongChallenge() {
        let clientData = authenticator.clientData(type: "webauthn.get", challenge: [9, 9, 9])
        expect(.challengeMismatch, authenticator.assertion(challenge: challenge, clientData: clientData))
    }

    @Test func wrongOrigin() {
        let clientData = authenticator.clientData(
            type: "webauthn.get", challenge: challenge, origin: "http://example.com")
        expect(.originNotAllowed, authenticator.assertion(challenge: challenge, clientData: clientData))
    }

    @Test func userNotPresent() {
        expect(.userNotPresent, authenticator.assertion(challenge: challenge, flags: [.userVerified]))
    }

    @Test func userNotVerifiedWhenRequired() throws {
        let response = authenticator.assertion(challenge: challenge, flags: [.userPresent])
        expect(.userNotVerified, response, requireUserVerification: true)
        _ = try verify(response)
    }

    @Test func backupEligibilityChanged() {
        let response = authenticator.assertion(challenge: challenge, flags: [.userPresent, .backupEligible])
        expect(.backupEligibilityChanged, response, stored: authenticator.stored(backupEligible: false))
    }

    @Test func badSignature() {
        var response = authenticator.assertion(challenge: challenge)
        response.response.signature = Base64URL.encode(authenticator.sign([0x00]))
        expect(.invalidSignature, response)
    }

    @Test func signatureThatIsNotDER() {
        var response = authenticator.assertion(challenge: challenge)
        response.response.signature = Base64URL.encode([0x01, 0x02])
        expect(.invalidSignature, response)
    }

    @Test func signCountRegression() {
        expect(
            .signCountRegression, authenticator.assertion(challenge: challenge, signCount: 3),
            stored: authenticator.stored(signCount: 3))
    }

    @Test func counterResetToZero() {
        expect(
            .signCountRegression, authenticator.assertion(challenge: challenge, signCount: 0),
            stored: authenticator.stored(signCount: 7))
    }

    @Test func storedKeyIsGarbage() {
        let stored = StoredCredential(
            id: authenticator.credentialID, publicKey: [0xA0], signCount: 0, backupEligible: false)
        expect(.invalidPublicKey, authenticator.assertion(challenge: challenge), stored: stored)
    }
}
