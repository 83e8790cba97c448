import Foundation
import HaleTesting
import Testing

@testable import HaleServer

/// The SDK builds what a device signs on its own; if it drifted from the server's encoding, every answer would fail.
@Suite("Confirmations: the SDK and the server sign the same bytes")
struct ConfirmationChallengeAgreementTests {
    @Test(arguments: ConfirmationMessage.Decision.allCases)
    func theSDKsChallengeIsTheServers(decision: ConfirmationMessage.Decision) {
        let id = UUID()
        let payload = #"{"amount":"12.00","currency":"EUR","note":"Zoë\n\u2028"}"#
        let server = ConfirmationMessage(
            confirmationId: ConfirmationID(id), actionType: "payment.approve", actionPayload: payload,
            decision: decision)
        let sdk = HaleClient.confirmationChallenge(
            id: id.uuidString, actionType: "payment.approve", actionPayload: payload, decision: decision.rawValue)
        #expect(sdk == server.challenge)
    }
}
