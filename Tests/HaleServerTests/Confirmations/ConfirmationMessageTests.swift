import Crypto
import Foundation
import StrictJSON
import Testing

@testable import HaleServer

/// What a device signs, byte for byte, and the canonical JSON the payload is stored as.
@Suite("Confirmations: the signed message and canonical JSON")
struct ConfirmationMessageTests {
    static let id = ConfirmationID(UUID(uuidString: "6F1E3C2A-9B7D-4E21-8F3A-1C2B3D4E5F60")!)

    @Test("the encoding is five lines, the id in lowercase and the payload last, byte for byte")
    func encoding() {
        let message = ConfirmationMessage(
            confirmationId: Self.id, actionType: "payment.approve", actionPayload: #"{"amount":"49.90"}"#,
            decision: .approve)
        let expected =
            "hale-confirmation-v1\n6f1e3c2a-9b7d-4e21-8f3a-1c2b3d4e5f60\npayment.approve\napprove\n{\"amount\":\"49.90\"}"
        #expect(message.encoded == Array(expected.utf8))
        let digest = Data(SHA256.hash(data: Data(expected.utf8)))
        let base64url = digest.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        #expect(message.challenge == base64url)
    }

    @Test("every field changes what is signed")
    func everyFieldCounts() {
        let base = ConfirmationMessage(
            confirmationId: Self.id, actionType: "a", actionPayload: "{}", decision: .approve)
        let variants = [
            ConfirmationMessage(confirmationId: .random(), actionType: "a", actionPayload: "{}", decision: .approve),
            ConfirmationMessage(confirmationId: Self.id, actionType: "b", actionPayload: "{}", decision: .approve),
            ConfirmationMessage(
                confirmationId: Self.id, actionType: "a", actionPayload: #"{"x":1}"#, decision: .approve),
            ConfirmationMessage(confirmationId: Self.id, actionType: "a", actionPayload: "{}", decision: .deny),
        ]
        #expect(Set(variants.map(\.challenge)).count == 4)
        #expect(!variants.map(\.challenge).contains(base.challenge))
    }

    static func canonical(_ json: String) throws -> String {
        CanonicalJSON.text(of: try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)))
    }

    @Test("members sorted, no whitespace, numbers as JavaScript writes them, minimal escapes")
    func canonicalJSON() throws {
        #expect(
            try Self.canonical(#"{ "b": 1, "a": [true, null, 2.50, 1e21, -0.0000001] }"#)
                == #"{"a":[true,null,2.5,1e+21,-1e-7],"b":1}"#)
        #expect(
            try Self.canonical(#"{"s":"line\nbreak \"quoted\" back\\slash \u0001 é /"}"#)
                == #"{"s":"line\nbreak \"quoted\" back\\slash \u0001 é /"}"#)
        // UTF-16 order: "é" (U+00E9) sorts before "😀" (a surrogate pair, 0xD83D…) but after "z".
        #expect(try Self.canonical(#"{"😀":1,"é":2,"z":3}"#) == #"{"z":3,"é":2,"😀":1}"#)
        #expect(try Self.canonical(#"{"n":{"y":{},"x":[]}}"#) == #"{"n":{"x":[],"y":{}}}"#)
    }
}
