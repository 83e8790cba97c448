import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

@Suite("HTTP: deleting an account")
struct AccountDeletionTests {
    @Test(
        "deleting an account removes what it owns, ends every credential and keeps its audit events",
        arguments: TestDatabase.available)
    func deleteAccount(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, token) = try await makeAccount(app)
            let (other, otherToken) = try await makeAccount(app, email: "other@example.com")
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            try await app.testing().test(.DELETE, "/api/v1/account", headers: .bearer(pair.accessToken)) { response in
                #expect(response.status == .ok)
                let body = try response.json()
                #expect(body["success"] as? Bool == true)
            }
            for bearer in [token, pair.accessToken] {
                try await app.testing().test(.GET, "/api/v1/account", headers: .bearer(bearer)) { response in
                    #expect(response.status == .unauthorized)
                }
            }
            await #expect(throws: HaleError.invalidToken) { try await app.hale.sessions.refresh(pair.refreshToken) }
            #expect(try await app.hale.accounts.find(account.id) == nil)
            let sql = app.hale.database.sql
            for table in ["sessions", "refresh_tokens", "personal_access_tokens"] {
                let rows = try await sql.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first()?
                    .decode(column: "n", as: Int.self)
                #expect(rows == (table == "personal_access_tokens" ? 1 : 0), "\(table)")
            }
            #expect(try await app.hale.audit.events(of: account.id).isEmpty, "its events no longer name the account")
            let kept = try await sql.raw("SELECT event_type FROM audit_events").all()
                .map { try $0.decode(column: "event_type", as: String.self) }
            #expect(kept == ["account_deleted"])
            #expect(try await app.hale.audit.verify() == .intact(count: 1))
            try await app.testing().test(.GET, "/api/v1/account", headers: .bearer(otherToken)) { response in
                #expect(response.status == .ok)
            }
            #expect(try await app.hale.accounts.find(other.id) != nil)
        }
    }
}

/// `DELETE /api/v1/account` needs a sign-in within `tokens.freshSignInWindow`; anything else is RFC 9470's step-up
/// challenge, and the account stays.
@Suite("HTTP: deleting an account needs a fresh sign-in")
struct FreshSignInTests {
    static let stepUp =
        #"Bearer realm="hale", error="insufficient_user_authentication", "#
        + #"error_description="A more recent sign-in is required", max_age="300""#

    /// Asks to delete the account and expects the step-up refusal, with the account still there.
    static func expectRefused(
        _ app: Application, bearer: String, account: AccountID, challenge: String = stepUp,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let response = try await app.testing().sendRequest(.DELETE, "/api/v1/account", headers: .bearer(bearer))
        #expect(response.status == .unauthorized, sourceLocation: sourceLocation)
        let error = try response.coreError()
        #expect(error.success == false, sourceLocation: sourceLocation)
        #expect(error.error.code == "FRESH_SIGN_IN_REQUIRED", sourceLocation: sourceLocation)
        #expect(response.headers.first(name: .wwwAuthenticate) == challenge, sourceLocation: sourceLocation)
        #expect(try await app.hale.accounts.find(account) != nil, sourceLocation: sourceLocation)
    }

    static func expectDeleted(_ app: Application, bearer: String, account: AccountID) async throws {
        let response = try await app.testing().sendRequest(.DELETE, "/api/v1/account", headers: .bearer(bearer))
        #expect(response.status == .ok)
        #expect(try await app.hale.accounts.find(account) == nil)
    }

    @Test("a session started within the window may delete, up to its last second", arguments: TestDatabase.available)
    func freshSession(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "passkey", rememberMe: false)
            time.advance(.seconds(300))
            try await Self.expectDeleted(app, bearer: pair.accessToken, account: account.id)
        }
    }

    @Test("a session older than the window is refused, even with an access token refreshed just now")
    func staleSessionRefreshed() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "passkey", rememberMe: false)
            time.advance(.seconds(301))
            let refreshed = try await app.hale.sessions.refresh(pair.refreshToken)
            try await Self.expectRefused(app, bearer: refreshed.accessToken, account: account.id)
        }
    }

    @Test("an operator's token never qualifies, even just made")
    func operatorToken() async throws {
        try await withHale { app in
            let (account, token) = try await makeAccount(app)
            try await Self.expectRefused(app, bearer: token, account: account.id)
        }
    }

    @Test("a social sign-in's token qualifies within the window of its creation", arguments: TestDatabase.available)
    func freshSocialToken(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let social = try await app.hale.personalAccessTokens.create(
                for: account.id, name: "google sign-in", expiresIn: .seconds(86_400), signInMethod: "google")
            time.advance(.seconds(300))
            try await Self.expectDeleted(app, bearer: social.token, account: account.id)
        }
    }

    @Test("a social sign-in's token older than the window is refused")
    func staleSocialToken() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let social = try await app.hale.personalAccessTokens.create(
                for: account.id, name: "google sign-in", expiresIn: .seconds(86_400), signInMethod: "google")
            time.advance(.seconds(301))
            try await Self.expectRefused(app, bearer: social.token, account: account.id)
        }
    }

    @Test("a handed-off access token never qualifies, even from a session just started")
    func handedOffToken() async throws {
        try await withHale { app in
            let (account, _) = try await makeAccount(app)
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "passkey", rememberMe: false)
            let issued = try await app.testing().sendRequest(
                .POST, "/api/v1/auth/handoff", headers: .bearer(pair.accessToken))
            let code = try #require(try issued.json()["code"] as? String)
            let redeemed = try await app.testing().sendRequest(
                .POST, "/api/v1/auth/handoff/redeem", headers: .json(), body: .json(#"{"code":"\#(code)"}"#))
            let handedOff = try #require(try redeemed.json()["accessToken"] as? String)
            try await Self.expectRefused(app, bearer: handedOff, account: account.id)
        }
    }

    @Test("the window and the challenge's max_age follow tokens.freshSignInWindow")
    func configuredWindow() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock, settings: ["tokens.freshSignInWindow": "1m"]) { app in
            let (account, _) = try await makeAccount(app)
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "device_key", rememberMe: false)
            time.advance(.seconds(61))
            try await Self.expectRefused(
                app, bearer: pair.accessToken, account: account.id,
                challenge: Self.stepUp.replacingOccurrences(of: #"max_age="300""#, with: #"max_age="60""#))
            let response = try await app.testing().sendRequest(
                .DELETE, "/api/v1/account", headers: .bearer(pair.accessToken))
            #expect(
                try response.coreError().error.message
                    == "This needs a sign-in from the last minute. Sign in again, then retry.")
        }
    }
}
