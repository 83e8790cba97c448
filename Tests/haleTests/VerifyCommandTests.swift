import ByteEncoding
import Foundation
import HaleClient
import Testing
import WebAuthn

@testable import hale

@Suite("hale verify webauthn-…")
struct VerifyCommandTests {
    var passkey = SoftwarePasskey(rpID: "example.com", origin: "https://example.com")
    let challenge: [UInt8] = Array("a challenge".utf8)

    private func input(_ response: some Encodable, extra: [String: Any] = [:]) throws -> Data {
        var object: [String: Any] = [
            "response": try JSONSerialization.jsonObject(with: JSONEncoder().encode(response)),
            "expectedChallenge": Base64URL.encode(challenge), "expectedOrigins": ["https://example.com"],
            "expectedRPID": "example.com",
        ]
        object.merge(extra) { $1 }
        return try JSONSerialization.data(withJSONObject: object)
    }

    private func parse(_ outcome: WebAuthnDebugger.Outcome) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(outcome.json.utf8)) as? [String: Any] ?? [:]
    }

    @Test func aGoodRegistrationPrintsWhatToStore() async throws {
        let outcome = await WebAuthnDebugger.registration(
            try input(
                passkey.registration(challenge: challenge, format: "packed"), extra: ["at": "2026-01-01T00:00:00Z"]))
        #expect(outcome.exitCode == 0)
        let json = try parse(outcome)
        #expect(json["verified"] as? Bool == true)
        #expect(json["fmt"] as? String == "packed")
        #expect(json["credentialID"] as? String == Base64URL.encode(passkey.credentialID))
        #expect(json["aaguid"] as? String == "00000000-0000-0000-0000-000000000000")
        #expect(json["signCount"] as? Int == 0)
        #expect(json["userVerified"] as? Bool == true)
        #expect(json["backupEligible"] as? Bool == false)
        #expect(json["backupState"] as? Bool == false)
        let key = try #require(json["credentialPublicKey"] as? String)
        #expect(try COSEKey(bytes: Array(try #require(Base64URL.decode(key)))).algorithm == .es256)
    }

    @Test func aRefusedRegistrationNamesTheReasonAndExitsOne() async throws {
        let outcome = await WebAuthnDebugger.registration(
            try input(passkey.registration(challenge: challenge), extra: ["expectedOrigins": ["https://other.example"]])
        )
        #expect(outcome.exitCode == 1)
        let json = try parse(outcome)
        #expect(json["verified"] as? Bool == false)
        #expect(json["error"] as? String == "ORIGIN_NOT_ALLOWED")
        #expect((json["message"] as? String)?.isEmpty == false)
    }

    @Test func aGoodAuthenticationPrintsTheNewCounter() async throws {
        let assertion = passkey.assertion(challenge: challenge, signCount: 8)
        let key = Base64URL.encode(passkey.stored().publicKey)
        let outcome = await WebAuthnDebugger.authentication(
            try input(assertion, extra: ["credentialPublicKey": key, "previousSignCount": 7]))
        #expect(outcome.exitCode == 0)
        let json = try parse(outcome)
        #expect(json["signCount"] as? Int == 8)
        #expect(json["credentialPublicKey"] as? String == key)
    }

    @Test func aRegressedCounterIsRefused() async throws {
        let assertion = passkey.assertion(challenge: challenge, signCount: 3)
        let outcome = await WebAuthnDebugger.authentication(
            try input(
                assertion,
                extra: ["credentialPublicKey": Base64URL.encode(passkey.stored().publicKey), "previousSignCount": 3]))
        #expect(outcome.exitCode == 1)
        #expect(try parse(outcome)["error"] as? String == "SIGN_COUNT_REGRESSION")
    }

    @Test(arguments: [
        Data("not json".utf8),
        Data(#"{"response": {}}"#.utf8),
        Data(#"{"expectedChallenge": "x"}"#.utf8),
    ])
    func unusableInputExitsTwo(data: Data) async throws {
        for outcome in [await WebAuthnDebugger.registration(data), await WebAuthnDebugger.authentication(data)] {
            #expect(outcome.exitCode == 2)
            #expect(try parse(outcome)["error"] as? String == "UNUSABLE_INPUT")
        }
    }

    @Test func authenticationWithoutTheKeyIsUnusable() async throws {
        let outcome = await WebAuthnDebugger.authentication(try input(passkey.assertion(challenge: challenge)))
        #expect(outcome.exitCode == 2)
    }

    @Test func aBadTimeIsUnusable() async throws {
        let outcome = await WebAuthnDebugger.registration(
            try input(passkey.registration(challenge: challenge), extra: ["at": "yesterday"]))
        #expect(outcome.exitCode == 2)
    }

    @Test func theCommandsParse() throws {
        #expect(
            try HaleCommand.parseAsRoot(["verify", "webauthn-registration", "r.json"])
                is VerifyCommand.WebAuthnRegistration)
        #expect(
            try HaleCommand.parseAsRoot(["verify", "webauthn-authentication", "a.json"])
                is VerifyCommand.WebAuthnAuthentication)
    }
}

@Suite("hale bench webauthn")
struct BenchCommandTests {
    @Test func everyMeasurementVerifiesAndCounts() async throws {
        let rates = try await WebAuthnBenchmark(duration: .milliseconds(50)).run()
        #expect(
            rates.map(\.name) == [
                "raw P-256 verify", "authentication verify", "registration verify (none)", "device-key signer lookup",
            ])
        #expect(rates.allSatisfy { $0.operations > 0 && $0.seconds > 0 })
        let table = BenchCommand.WebAuthn.table(rates)
        #expect(table.contains("of raw P-256"))
        #expect(try HaleCommand.parseAsRoot(["bench", "webauthn", "--seconds", "1"]) is BenchCommand.WebAuthn)
    }
}
