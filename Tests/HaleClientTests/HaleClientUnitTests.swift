import Foundation
import Synchronization
import Testing

@testable import HaleClient

@Suite("HaleClient: errors, retries and single-flight refresh")
struct HaleClientUnitTests {
    static func error(_ json: String, status: Int = 400) -> HaleClientError {
        .server(status: status, body: Data(json.utf8))
    }

    @Test("each of Hale's error shapes is read into a status, a code and a message")
    func errorShapes() {
        #expect(
            Self.error(
                #"{"success":false,"error":{"code":"TOKEN_EXPIRED","message":"The token has expired."}}"#, status: 401)
                == .server(status: 401, code: "TOKEN_EXPIRED", message: "The token has expired."))
        #expect(
            Self.error(#"{"statusCode":400,"message":["steps must not exceed 100000"],"error":"Bad Request"}"#)
                == .server(status: 400, code: "BAD_REQUEST", message: "steps must not exceed 100000"))
        #expect(
            Self.error(
                #"{"errors":[{"status":"401","code":"OAUTH_INVALID_TOKEN","detail":"Sign in again."}]}"#, status: 401)
                == .server(status: 401, code: "OAUTH_INVALID_TOKEN", message: "Sign in again."))
        #expect(Self.error("<html>", status: 502) == .unexpectedResponse(status: 502))
    }

    @Test("only transport failures and 429, 502, 503 and 504 are worth another attempt")
    func transient() {
        #expect(HaleClientError.transport("reset").isTransient)
        #expect(HaleClientError.unexpectedResponse(status: 503).isTransient)
        #expect(HaleClientError.server(status: 429, code: "RATE_LIMITED", message: "").isTransient)
        #expect(!HaleClientError.server(status: 400, code: "INVALID_REQUEST", message: "").isTransient)
        #expect(!HaleClientError.notSignedIn.isTransient)
    }

    @Test("backoff doubles per attempt, between half and all of the doubled delay")
    func backoff() {
        let policy = RetryPolicy(maxAttempts: 4, firstDelay: .milliseconds(100))
        for _ in 0..<50 {
            #expect((.milliseconds(50)...(.milliseconds(100))).contains(policy.delay(before: 2)))
            #expect((.milliseconds(200)...(.milliseconds(400))).contains(policy.delay(before: 4)))
        }
    }

    @Test("twenty requests finding the access token stale share one refresh")
    func singleFlight() async throws {
        let store = TokenStore()
        await store.set(SessionTokens(accessToken: "a1", refreshToken: "r1"))
        let calls = Calls()
        let results = try await withThrowingTaskGroup(of: SessionTokens.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await store.refreshed(replacing: "a1") { refresh in
                        calls.count.withLock { $0 += 1 }
                        try await Task.sleep(for: .milliseconds(50))
                        return SessionTokens(accessToken: "a2", refreshToken: (refresh.refreshToken ?? "") + "→r2")
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(calls.count.withLock { $0 } == 1)
        #expect(Set(results.map(\.accessToken)) == ["a2"])
        #expect(await store.tokens == SessionTokens(accessToken: "a2", refreshToken: "r1→r2"))
    }

    @Test("a refused refresh token signs the client out")
    func refusedRefresh() async throws {
        let store = TokenStore()
        await store.set(SessionTokens(accessToken: "a1", refreshToken: "r1"))
        await #expect(throws: HaleClientError.notSignedIn) {
            try await store.refreshed(replacing: "a1") { _ in
                throw HaleClientError.server(status: 401, code: "REFRESH_FAILED", message: "")
            }
        }
        #expect(await store.tokens == nil)
    }

    @Test("a refresh that fails for another reason keeps the session, to try again")
    func failedRefresh() async throws {
        let store = TokenStore()
        await store.set(SessionTokens(accessToken: "a1", refreshToken: "r1"))
        await #expect(throws: HaleClientError.transport("offline")) {
            try await store.refreshed(replacing: "a1") { _ in throw HaleClientError.transport("offline") }
        }
        #expect(await store.tokens == SessionTokens(accessToken: "a1", refreshToken: "r1"))
    }

    @Test("a token that does not refresh, refused, signs the client out without a refresh")
    func refusedTokenWithoutRefresh() async throws {
        let store = TokenStore()
        await store.set(SessionTokens(accessToken: "1|social", refreshToken: nil))
        await #expect(throws: HaleClientError.notSignedIn) {
            try await store.refreshed(replacing: "1|social") { _ in
                Issue.record("a refresh ran without a refresh token")
                return SessionTokens(accessToken: "", refreshToken: nil)
            }
        }
        #expect(await store.tokens == nil)
    }
}

/// Counts calls from concurrent tasks.
final class Calls: Sendable {
    let count = Mutex(0)
}
