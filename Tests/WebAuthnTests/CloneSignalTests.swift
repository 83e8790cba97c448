import ByteEncoding
import Foundation
import HaleClient
import Testing

@testable import WebAuthn

/// §7.2 steps 18 and 22 as signs of a cloned authenticator: refused by default, reported when asked, and looked for
/// only once the signature holds.
@Suite("WebAuthn authentication: signs of a cloned authenticator")
struct CloneSignalTests {
    let authenticator = SoftwarePasskey()
    let challenge: [UInt8] = Array("authentication-challenge-0123456789".utf8)

    private func report(_ response: AuthenticationResponseJSON, stored: StoredCredential) throws
        -> VerifiedAuthentication
    {
        try AuthenticationVerifier(relyingParty: try authenticator.relyingParty).verify(
            response, expectedChallenge: challenge, credential: stored, requireUserVerification: false,
            cloneSignals: .report)
    }

    @Test func aRegressedCounterIsReportedWithTheCounterSeen() throws {
        let verified = try report(
            authenticator.assertion(challenge: challenge, signCount: 3), stored: authenticator.stored(signCount: 9))
        #expect(verified.cloneSignal == .signCountRegression)
        #expect(verified.signCount == 3)
    }

    @Test func aCounterResetToZeroIsReported() throws {
        let verified = try report(
            authenticator.assertion(challenge: challenge, signCount: 0), stored: authenticator.stored(signCount: 7))
        #expect(verified.cloneSignal == .signCountRegression)
    }

    @Test func aChangedBackupEligibilityIsReported() throws {
        let response = authenticator.assertion(challenge: challenge, flags: [.userPresent, .backupEligible])
        let verified = try report(response, stored: authenticator.stored(backupEligible: false))
        #expect(verified.cloneSignal == .backupEligibilityChanged)
        #expect(verified.backupEligible)
    }

    @Test func aCleanSignInReportsNothing() throws {
        let verified = try report(
            authenticator.assertion(challenge: challenge, signCount: 5), stored: authenticator.stored(signCount: 4))
        #expect(verified.cloneSignal == nil)
    }

    @Test func aForgedResponseRaisesNoSignalWhateverItsCounter() {
        var response = authenticator.assertion(challenge: challenge, signCount: 1)
        response.response.signature = Base64URL.encode(authenticator.sign([0x00]))
        #expect(throws: WebAuthnError(.invalidSignature, "")) {
            try report(response, stored: authenticator.stored(signCount: 9))
        }
    }

    @Test func aForgedResponseRaisesNoSignalWhateverItsFlags() {
        var response = authenticator.assertion(challenge: challenge, flags: [.userPresent, .backupEligible])
        response.response.signature = Base64URL.encode(authenticator.sign([0x00]))
        #expect(throws: WebAuthnError(.invalidSignature, "")) {
            try report(response, stored: authenticator.stored(backupEligible: false))
        }
    }
}
