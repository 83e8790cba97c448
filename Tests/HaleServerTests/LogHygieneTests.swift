import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

@Suite("Log hygiene")
struct LogHygieneTests {
    /// Drives sign-in, refresh, reuse, handoff and bad requests with every secret in play, then searches every log line.
    @Test func noTokenOrSecretIsEverLogged() async throws {
        let time = TestClock()
        let capture = LogCapture()
        try await withHale(clock: time.clock) { app in
            app.logger = capture.logger()
            let (account, personalToken) = try await makeAccount(app)
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            var secrets = [personalToken, pair.accessToken, pair.refreshToken]

            let handoff = try await app.testing().sendRequest(
                .POST, "/api/v1/auth/handoff", headers: .bearer(pair.accessToken))
            let code = try #require(try handoff.json()["code"] as? String)
            secrets.append(code)
            let redeemed = try await app.testing().sendRequest(
                .POST, "/api/v1/auth/handoff/redeem", headers: .json(),
                body: .json(#"{"code":"\#(code)"}"#))
            secrets.append(contentsOf: try redeemed.json().values.compactMap { $0 as? String })

            let refresh = ByteBuffer.json(#"{"refreshToken":"\#(pair.refreshToken)"}"#)
            let rotated = try await app.testing().sendRequest(
                .POST, "/api/v1/auth/refresh", headers: .json(), body: refresh)
            secrets.append(contentsOf: try rotated.json().values.compactMap { $0 as? String })
            time.advance(.seconds(30))
            let reused = try await app.testing().sendRequest(
                .POST, "/api/v1/auth/refresh", headers: .json(), body: refresh)
            #expect(reused.status == .unauthorized)

            _ = try await app.testing().sendRequest(.GET, "/api/v1/account", headers: .bearer(pair.accessToken))
            _ = try await app.testing().sendRequest(.GET, "/api/v1/account", headers: .bearer("\(personalToken)x"))

            let logged = capture.text
            #expect(logged.contains("refresh token reuse"), "the reuse warning is expected in the log")
            #expect(logged.contains("request-id"))
            for secret in secrets {
                #expect(!logged.contains(secret), "a secret reached the log")
            }
            let secretPart = String(personalToken.split(separator: "|")[1])
            #expect(!logged.contains(secretPart))
        }
    }

    @Test("an unexpected coding error is logged by kind and path, never with the value it failed on")
    func codingErrorsAreLoggedWithoutValues() {
        struct Sample: Encodable { let value = 8_765.0 }
        let encoding = EncodingError.invalidValue(
            Sample(), .init(codingPath: [], debugDescription: "steps 8765.0 of token abc123"))
        #expect(HaleErrorMiddleware.loggable(encoding) == "EncodingError at the top level")
        let decoding = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "value 8765.0"))
        #expect(!HaleErrorMiddleware.loggable(decoding).contains("8765"))
    }
}
