import Foundation
import HaleTesting
import Testing

@testable import hale

@Suite("hale verify appattest-… and play-integrity")
struct IntegrityVerifyCommandTests {
    let attester: SoftwareAppAttester
    let play = SoftwarePlayIntegrity()
    let challenge = "a-nonce"

    init() throws {
        attester = try SoftwareAppAttester()
    }

    private func file(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    private func parse(_ outcome: WebAuthnDebugger.Outcome) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(outcome.json.utf8)) as? [String: Any] ?? [:]
    }

    private func attestationInput(teamID: String? = nil) throws -> [String: Any] {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("root-\(UUID()).pem")
        try attester.rootPEM.write(to: root, atomically: true, encoding: .utf8)
        return [
            "attestation": Data(try attester.attestation(challenge: challenge)).base64EncodedString(),
            "keyId": Data(attester.keyID).base64EncodedString(),
            "challenge": Data(challenge.utf8).base64EncodedString(), "teamID": teamID ?? attester.teamID,
            "bundleID": attester.bundleID, "environment": "development", "rootCertificate": root.path,
        ]
    }

    @Test func anAttestationPrintsTheKeyAndReceipt() async throws {
        let outcome = await IntegrityDebugger.appAttestAttestation(try file(try attestationInput()))
        #expect(outcome.exitCode == 0, "\(outcome.json)")
        let json = try parse(outcome)
        #expect(json["verified"] as? Bool == true)
        #expect(json["publicKey"] as? String == attester.publicKeyPEM)
        #expect(json["environment"] as? String == "development")
        #expect(json["receipt"] is String)
    }

    @Test func anAttestationForAnotherTeamIsRefused() async throws {
        let outcome = await IntegrityDebugger.appAttestAttestation(try file(try attestationInput(teamID: "OTHERTEAM1")))
        #expect(outcome.exitCode == 1)
        #expect(try parse(outcome)["error"] as? String == "WRONG_APP")
    }

    @Test func anAssertionPrintsTheNewCounter() async throws {
        var input: [String: Any] = [
            "assertion": Data(try attester.assertion(challenge: challenge, counter: 7)).base64EncodedString(),
            "publicKey": attester.publicKeyPEM, "clientData": Data(challenge.utf8).base64EncodedString(),
            "teamID": attester.teamID, "bundleID": attester.bundleID, "previousCounter": 6,
        ]
        let verified = await IntegrityDebugger.appAttestAssertion(try file(input))
        #expect(verified.exitCode == 0, "\(verified.json)")
        #expect(try parse(verified)["counter"] as? Int == 7)
        input["previousCounter"] = 7
        let replayed = await IntegrityDebugger.appAttestAssertion(try file(input))
        #expect(replayed.exitCode == 1)
        #expect(try parse(replayed)["error"] as? String == "COUNTER_REPLAY")
    }

    @Test func aPlayIntegrityTokenPrintsItsVerdict() async throws {
        let settings = play.settings
        var input: [String: Any] = [
            "token": try play.token(nonce: challenge),
            "decryptionKey": try #require(settings["playIntegrity.decryptionKey"]),
            "verificationKey": try #require(settings["playIntegrity.verificationKey"]),
            "packageName": play.packageName, "nonce": challenge,
            "certificateDigests": [play.certificateDigestBase64URL],
        ]
        let verified = await IntegrityDebugger.playIntegrity(try file(input))
        #expect(verified.exitCode == 0, "\(verified.json)")
        let verdict = try #require(try parse(verified)["verdict"] as? [String: Any])
        #expect(verdict["appRecognitionVerdict"] as? String == "PLAY_RECOGNIZED")
        input["nonce"] = "another"
        let refused = await IntegrityDebugger.playIntegrity(try file(input))
        #expect(refused.exitCode == 1)
        #expect(try parse(refused)["error"] as? String == "NONCE_MISMATCH")
    }

    @Test(arguments: ["not json", #"{"token": "x"}"#])
    func unusableInputExitsTwo(text: String) async throws {
        for outcome in [
            await IntegrityDebugger.appAttestAttestation(Data(text.utf8)),
            await IntegrityDebugger.appAttestAssertion(Data(text.utf8)),
            await IntegrityDebugger.playIntegrity(Data(text.utf8)),
        ] {
            #expect(outcome.exitCode == 2)
            #expect(try parse(outcome)["error"] as? String == "UNUSABLE_INPUT")
        }
    }

    @Test func theCommandsParse() throws {
        for name in ["appattest-attestation", "appattest-assertion", "play-integrity"] {
            #expect(throws: Never.self) { try HaleCommand.parseAsRoot(["verify", name, "input.json"]) }
        }
    }
}
