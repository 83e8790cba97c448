import Foundation
import Testing
import WebAuthn

@testable import HaleClient

@Suite("Software passkey")
struct SoftwarePasskeyTests {
    let relyingParty: RelyingParty
    var passkey = SoftwarePasskey(rpID: "example.com", origin: "https://example.com")

    init() throws {
        relyingParty = try RelyingParty(id: "example.com", name: "Example", origins: ["https://example.com"])
    }

    @Test mutating func itRegistersAndSignsInAsARelyingPartyExpects() async throws {
        let handle: [UInt8] = [1, 2, 3, 4]
        let options = relyingParty.creationOptions(
            challenge: [9, 9, 9], user: .init(handle: handle, name: "a@example.com", displayName: "A"))
        let registration = passkey.register(options: options)
        let verified = try await RegistrationVerifier(relyingParty: relyingParty).verify(
            registration, expectedChallenge: [9, 9, 9], requireUserVerification: true, at: Date())
        #expect(verified.credentialID == passkey.credentialID)
        #expect(passkey.userHandle == handle)

        var stored = StoredCredential(
            id: verified.credentialID, publicKey: verified.publicKey, signCount: verified.signCount,
            backupEligible: verified.backupEligible)
        for expected in UInt32(1)...3 {
            let request = relyingParty.requestOptions(challenge: [UInt8(expected)])
            let assertion = passkey.assert(options: request)
            let signedIn = try AuthenticationVerifier(relyingParty: relyingParty).verify(
                assertion, expectedChallenge: [UInt8(expected)], credential: stored, requireUserVerification: true)
            #expect(signedIn.signCount == expected)
            #expect(signedIn.userHandle == handle)
            stored = StoredCredential(
                id: stored.id, publicKey: stored.publicKey, signCount: signedIn.signCount,
                backupEligible: stored.backupEligible)
        }
    }

    @Test func packedSelfAttestationVerifies() async throws {
        let verified = try await RegistrationVerifier(relyingParty: relyingParty).verify(
            passkey.registration(challenge: [7], format: "packed"), expectedChallenge: [7],
            requireUserVerification: false, at: Date())
        #expect(verified.attestationType == .self)
    }

    @Test func eachPasskeyHasItsOwnKeyAndID() {
        let other = SoftwarePasskey()
        #expect(other.credentialID != passkey.credentialID)
        #expect(other.key.publicKey.rawRepresentation != passkey.key.publicKey.rawRepresentation)
    }
}
