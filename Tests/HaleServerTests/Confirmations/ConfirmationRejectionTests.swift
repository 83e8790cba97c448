import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Every way an answer or a request is refused, one test per reason.
@Suite("Confirmations: refusals")
struct ConfirmationRejectionTests {
    static func code(_ response: TestingHTTPResponse) throws -> String { try response.coreError().error.code }

    @Test("a signature over the other decision is 401: the decision is part of what is signed")
    func signatureOverOtherDecision() async throws {
        try await ConfirmationHTTP.run { flow in
            let confirmation = try await flow.created()
            let id = try #require(confirmation["id"] as? String)
            let answered = try await flow.answer(id, "deny", signature: try flow.signature(confirmation, .approve))
            #expect(answered.status == .unauthorized)
            #expect(try Self.code(answered) == "CONFIRMATION_SIGNATURE_INVALID")
            #expect(try await flow.app.hale.confirmations.find(try #require(ConfirmationID(id))).decision == nil)
        }
    }

    @Test("a signature by another key, or garbage, is 401")
    func foreignKey() async throws {
        try await ConfirmationHTTP.run { flow in
            let confirmation = try await flow.created()
            let id = try #require(confirmation["id"] as? String)
            let stranger = try DeviceClient(.iOS)
            let foreign = try await flow.answer(
                id, "approve", signature: try flow.signature(confirmation, .approve, by: stranger))
            #expect(try Self.code(foreign) == "CONFIRMATION_SIGNATURE_INVALID")
            let garbage = try await flow.answer(id, "approve", signature: "bm90IGEgc2lnbmF0dXJl")
            #expect(try Self.code(garbage) == "CONFIRMATION_SIGNATURE_INVALID")
        }
    }

    @Test("an answer from a session not on a device (a personal access token) is 403")
    func noDeviceSession() async throws {
        try await ConfirmationHTTP.run { flow in
            let confirmation = try await flow.created()
            let id = try #require(confirmation["id"] as? String)
            let token = try await flow.app.hale.personalAccessTokens.create(for: flow.account, name: "cli").token
            let answered = try await flow.answer(
                id, "approve", signature: try flow.signature(confirmation, .approve), bearer: token)
            #expect(answered.status == .forbidden)
            #expect(try Self.code(answered) == "CONFIRMATION_WRONG_DEVICE")
        }
    }

    @Test("a deviceId that is not the session's device is 403")
    func claimedOtherDevice() async throws {
        try await ConfirmationHTTP.run { flow in
            let confirmation = try await flow.created()
            let id = try #require(confirmation["id"] as? String)
            let answered = try await flow.answer(
                id, "approve", signature: try flow.signature(confirmation, .approve),
                extra: #","deviceId":"\#(UUID().uuidString)""#)
            #expect(try Self.code(answered) == "CONFIRMATION_WRONG_DEVICE")
        }
    }

    @Test("a deactivated device cannot answer: its sessions end, and its key no longer counts")
    func deactivatedDevice() async throws {
        try await ConfirmationHTTP.run { flow in
            let second = try DeviceClient(.android)
            let owner = try await freshSignIn(flow.app, flow.account)
            let secondId = try await flow.api.register(second, bearer: owner)
            let secondSession = try flow.api.decode(DeviceAPI.SignedIn.self, try await flow.api.signIn(second))
            let confirmation = try await flow.created()
            let id = try #require(confirmation["id"] as? String)
            let deactivated = try await flow.api.post("/api/v1/devices/\(secondId)/deactivate", [:], bearer: owner)
            #expect(deactivated.status == .ok, "\(deactivated.body.string)")
            let answered = try await flow.answer(
                id, "approve", signature: try flow.signature(confirmation, .approve, by: second),
                bearer: secondSession.tokens.accessToken)
            #expect(answered.status == .unauthorized, "deactivating ended the device's sessions")
            // Had a session outlived it, the key of a deactivated device still would not count.
            await #expect(throws: HaleError.confirmationWrongDevice) {
                try await flow.app.hale.confirmations.answer(
                    try #require(ConfirmationID(id)), decision: .approve,
                    signature: try flow.signature(confirmation, .approve, by: second), account: flow.account,
                    device: DeviceID(try #require(UUID(uuidString: secondId))))
            }
        }
    }

    @Test("another account's device cannot see or answer it: 404")
    func otherAccount() async throws {
        try await ConfirmationHTTP.run { flow in
            let confirmation = try await flow.created()
            let id = try #require(confirmation["id"] as? String)
            let (_, bearer) = try await makeSignedInAccount(flow.app, email: "mallory@example.com")
            let mallory = try DeviceClient(.iOS)
            try await flow.api.register(mallory, bearer: bearer)
            let session = try flow.api.decode(DeviceAPI.SignedIn.self, try await flow.api.signIn(mallory))
            let token = session.tokens.accessToken
            #expect(try await flow.get("/api/v1/confirmations/\(id)", bearer: token).status == .notFound)
            let listed = try await flow.get("/api/v1/confirmations", bearer: token).json()["confirmations"]
            #expect((listed as? [[String: Any]])?.isEmpty == true, "another account's pending list")
            let answered = try await flow.answer(
                id, "approve", signature: try flow.signature(confirmation, .approve, by: mallory), bearer: token)
            #expect(answered.status == .notFound)
            #expect(try Self.code(answered) == "CONFIRMATION_NOT_FOUND")
        }
    }

    @Test(
        "a bad answer body is 400",
        arguments: [
            #"{"decision":"maybe","signature":"c2ln"}"#, #"{"signature":"c2ln"}"#, #"{"decision":"approve"}"#,
            #"{"decision":"approve","signature":""}"#, #"{"decision":"approve","signature":"c2ln","extra":1}"#,
        ])
    func badAnswerBody(body: String) async throws {
        try await ConfirmationHTTP.run { flow in
            let id = try #require(try await flow.created()["id"] as? String)
            let response = try await flow.app.testing().sendRequest(
                .POST, "/api/v1/confirmations/\(id)/answer", headers: .json(bearer: flow.deviceToken),
                body: .json(body))
            #expect(response.status == .badRequest, "\(response.body.string)")
        }
    }

    @Test("a signature is 1 to 1368 bytes, an RSA-8192 signature in base64, and the 400 says so", arguments: [0, 1369])
    func signatureLength(length: Int) async throws {
        try await ConfirmationHTTP.run { flow in
            let id = try #require(try await flow.created()["id"] as? String)
            let response = try await flow.answer(id, "approve", signature: String(repeating: "A", count: length))
            #expect(response.status == .badRequest)
            #expect(
                try response.coreError().error.message
                    == "signature must be 1 to 1368 bytes: the device key's signature, base64.")
        }
    }

    @Test("the admin API takes only a valid, unrevoked admin key")
    func adminKeys() async throws {
        try await ConfirmationHTTP.run { flow in
            let body = #"{"accountId":"\#(flow.account)","actionType":"payment.approve"}"#
            #expect(try await flow.create(body).status == .created)
            let noKey = try await flow.app.testing().sendRequest(
                .POST, "/api/v1/admin/confirmations", headers: .json(bearer: nil), body: .json(body))
            #expect(noKey.status == .unauthorized)
            #expect(try Self.code(noKey) == "ADMIN_KEY_INVALID")
            #expect(try await flow.create(body, key: flow.deviceToken).status == .unauthorized)
            #expect(try await flow.create(body, key: "admin.1.wrong-secret").status == .unauthorized)
            #expect(try await flow.create(body, key: "admin.x.y").status == .unauthorized)
            let id = Int64(flow.adminKey.split(separator: ".")[1])!
            #expect(try await flow.app.hale.adminKeys.revoke(id))
            #expect(try await flow.create(body).status == .unauthorized)
        }
    }

    @Test("an admin key is not an account token: account routes refuse it")
    func adminKeyIsNotAnAccountToken() async throws {
        try await ConfirmationHTTP.run { flow in
            let response = try await flow.get("/api/v1/confirmations", bearer: flow.adminKey)
            #expect(response.status == .unauthorized)
        }
    }

    @Test(
        "a bad confirmation request is a 400 that says what is wrong",
        arguments: [
            #"{"accountId":"nope","actionType":"a"}"#,
            #"{"accountId":"ACCOUNT","actionType":"Payment"}"#,
            #"{"accountId":"ACCOUNT","actionType":"pay ment"}"#,
            #"{"accountId":"ACCOUNT","actionType":""}"#,
            #"{"accountId":"ACCOUNT"}"#,
            #"{"accountId":"ACCOUNT","actionType":"a","actionPayload":[1]}"#,
            #"{"accountId":"ACCOUNT","actionType":"a","actionPayload":"text"}"#,
            #"{"accountId":"ACCOUNT","actionType":"a","expiresIn":29}"#,
            #"{"accountId":"ACCOUNT","actionType":"a","expiresIn":3601}"#,
            #"{"accountId":"ACCOUNT","actionType":"a","colour":"red"}"#,
        ])
    func badRequest(template: String) async throws {
        try await ConfirmationHTTP.run { flow in
            let response = try await flow.create(template.replacingOccurrences(of: "ACCOUNT", with: "\(flow.account)"))
            #expect(response.status == .badRequest, "\(response.body.string)")
            #expect(try Self.code(response) == "INVALID_REQUEST")
        }
    }

    @Test("a payload over 2 KB as canonical JSON is 400: it must fit in the push")
    func payloadTooLarge() async throws {
        try await ConfirmationHTTP.run { flow in
            let big = String(repeating: "x", count: 2_100)
            let response = try await flow.create(
                #"{"accountId":"\#(flow.account)","actionType":"a","actionPayload":{"note":"\#(big)"}}"#)
            #expect(response.status == .badRequest)
            // 700 quotes are 1,400 bytes of canonical JSON (\"), but 2,800 once escaped again inside the push.
            let quotes = String(repeating: #"\""#, count: 700)
            let escaped = try await flow.create(
                #"{"accountId":"\#(flow.account)","actionType":"a","actionPayload":{"q":"\#(quotes)"}}"#)
            #expect(escaped.status == .badRequest)
        }
    }

    @Test("an unknown account is 404; an account without an active device is 409")
    func noOneToAsk() async throws {
        try await ConfirmationHTTP.run { flow in
            let unknown = try await flow.create(#"{"accountId":"\#(UUID().uuidString)","actionType":"a"}"#)
            #expect(unknown.status == .notFound)
            let (lonely, _) = try await makeSignedInAccount(flow.app, email: "lonely@example.com")
            let none = try await flow.create(#"{"accountId":"\#(lonely.id)","actionType":"a"}"#)
            #expect(none.status == .conflict)
            #expect(try Self.code(none) == "NO_ACTIVE_DEVICE")
        }
    }
}
