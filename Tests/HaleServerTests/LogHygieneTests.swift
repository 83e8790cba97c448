import Foundation
import HaleTesting
import SQLKit
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

    @Test(
        "a PostgreSQL error is logged by its SQL state, table and constraint, never with the row it failed on",
        .enabled(if: TestDatabase.postgresAdminURL != nil, "needs HALE_TEST_POSTGRES_URL"))
    func databaseErrorsAreLoggedWithoutValues() async throws {
        try await withHale(on: .postgres) { app in
            let (account, _) = try await makeAccount(app)
            let insert = SQLQueryString(
                "INSERT INTO accounts (id, email, role, created_at, updated_at) VALUES (\(bind: UUID()), \(bind: "person@example.com"), 'user', now(), now())"
            )
            do {
                try await app.hale.database.sql.raw(insert).run()
                Issue.record("a second account with the same email was stored")
            } catch {
                let line = HaleErrorMiddleware.loggable(error)
                #expect(line.contains("sqlState=23505"), "\(line)")
                #expect(line.contains("table=accounts"), "\(line)")
                #expect(!line.contains("person@example.com"), "\(line)")
                #expect(String(reflecting: error).contains("person@example.com"), "the raw error holds the row")
            }
            _ = account
        }
    }

    @Test("HaleLogHandler: a library's lines below info are dropped, Hale's own kept at every level")
    func librariesAreQuietBelowInfo() {
        let capture = LogCapture()
        let logger = capture.logger().keepingLibrariesQuiet
        logger.trace("statement with binds", source: "PostgresKit")
        logger.debug("decoded part with headers", source: "Vapor")
        logger.info("GET /healthz", source: "Vapor")
        logger.trace("hale's own detail", source: "HaleServer")
        #expect(!capture.text.contains("binds") && !capture.text.contains("headers"))
        #expect(capture.text.contains("GET /healthz") && capture.text.contains("hale's own detail"))
        #expect(logger.keepingLibrariesQuiet.handler is HaleLogHandler)
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
