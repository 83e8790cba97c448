import Foundation
import Testing

@testable import HaleClient

/// What the client retries, and after how long, against a scripted server.
@Suite("HaleClient: retries")
struct HaleClientRetryTests {
    static let account = #"{"id":"a1","email":null,"role":"user","createdAt":"2026-11-22T08:30:00.000Z"}"#
    static let unavailable = #"{"success":false,"error":{"code":"UNAVAILABLE","message":"Try again."}}"#

    @Test("an idempotent request is retried after a transport failure and after a 503, then succeeds")
    func retriedThenSucceeds() async throws {
        let script = ScriptedURLProtocol.script([
            .transportFailure, .status(503, body: Self.unavailable), .status(200, body: Self.account),
        ])
        let account = try await script.client().send("GET", "api/v1/account", as: .bearer("t"), answer: Account.self)
        #expect(account.id == "a1" && script.asked.count == 3)
    }

    @Test("a POST is sent once, whatever the answer: a lost answer may hide a success")
    func postIsNotRetried() async throws {
        let script = ScriptedURLProtocol.script([.status(503, body: Self.unavailable), .status(200)])
        await #expect(throws: HaleClientError.server(status: 503, code: "UNAVAILABLE", message: "Try again.")) {
            _ = try await script.client().send("POST", "api/v1/auth/logout", json: ["a": "b"], as: .bearer("t"))
        }
        #expect(script.asked == ["POST /api/v1/auth/logout"])
    }

    @Test("a 429 is retried after the Retry-After the server asked for")
    func retryAfterIsHonoured() async throws {
        let script = ScriptedURLProtocol.script([
            .status(429, headers: ["Retry-After": "1"], body: Self.unavailable), .status(200, body: Self.account),
        ])
        let started = ContinuousClock.now
        _ = try await script.client().send("GET", "api/v1/account", as: .bearer("t"), answer: Account.self)
        #expect(ContinuousClock.now - started >= .seconds(1), "the client waited as asked, not its 1 ms backoff")
        #expect(script.asked.count == 2)
    }

    @Test("a Retry-After longer than the client will wait is returned as the error, at once")
    func longRetryAfterIsNotWaitedFor() async throws {
        let script = ScriptedURLProtocol.script([
            .status(503, headers: ["Retry-After": "3600"], body: Self.unavailable), .status(200, body: Self.account),
        ])
        await #expect(throws: HaleClientError.server(status: 503, code: "UNAVAILABLE", message: "Try again.")) {
            _ = try await script.client().send("GET", "api/v1/account", as: .bearer("t"), answer: Account.self)
        }
        #expect(script.asked.count == 1)
    }

    @Test("attempts stop at the policy's maximum")
    func attemptsAreBounded() async throws {
        let script = ScriptedURLProtocol.script(Array(repeating: .status(502, body: Self.unavailable), count: 5))
        await #expect(throws: HaleClientError.server(status: 502, code: "UNAVAILABLE", message: "Try again.")) {
            _ = try await script.client().send("GET", "api/v1/account", as: .bearer("t"), answer: Account.self)
        }
        #expect(script.asked.count == 3)
    }

    @Test("a 401 that does not challenge the token is the request's error: no refresh, no sign-out")
    func aPlain401IsNotARefresh() async throws {
        let refused = #"{"success":false,"error":{"code":"SIGNATURE_FAILED","message":"No."}}"#
        let script = ScriptedURLProtocol.script([.status(401, body: refused)])
        let client = script.client()
        await client.restore(SessionTokens(accessToken: "a1", refreshToken: "r1"))
        await #expect(throws: HaleClientError.server(status: 401, code: "SIGNATURE_FAILED", message: "No.")) {
            _ = try await client.send("POST", "api/v1/devices/register/verify", json: ["a": "b"], as: .session)
        }
        #expect(script.asked == ["POST /api/v1/devices/register/verify"])
        #expect(await client.sessionTokens == SessionTokens(accessToken: "a1", refreshToken: "r1"))
    }

    @Test("a challenged token is refreshed once and the request sent again with the new one")
    func aChallengedTokenIsRefreshed() async throws {
        let challenge = ["WWW-Authenticate": #"Bearer realm="hale", error="invalid_token""#]
        let expired = #"{"success":false,"error":{"code":"TOKEN_EXPIRED","message":"Expired."}}"#
        let tokens = #"{"accessToken":"a2","refreshToken":"r2"}"#
        let script = ScriptedURLProtocol.script([
            .status(401, headers: challenge, body: expired), .status(200, body: tokens),
            .status(200, body: Self.account),
        ])
        let client = script.client()
        await client.restore(SessionTokens(accessToken: "a1", refreshToken: "r1"))
        _ = try await client.account()
        #expect(script.asked == ["GET /api/v1/account", "POST /api/v1/auth/biometric/refresh", "GET /api/v1/account"])
        #expect(await client.sessionTokens == SessionTokens(accessToken: "a2", refreshToken: "r2"))
    }
}
