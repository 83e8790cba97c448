import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Sign in with Apple's account lifecycle against a fake Apple: refresh tokens from authorization codes, revoked
/// when the account is deleted (retried until Apple confirms), and server-to-server notifications.
@Suite("HTTP: Sign in with Apple's account lifecycle")
struct AppleLifecycleTests {
    typealias HTTP = SocialSignInHTTPTests

    static func document(token: String, code: String?) -> String {
        let codeMember = code.map { #", "authorizationCode": "\#($0)""# } ?? ""
        return """
            {"data": {"attributes": {"provider": "apple", "oauthToken": "\(token)", "role": "client"\(codeMember)}}}
            """
    }

    /// Signs in as `subject` with a fresh authorization code; returns the personal access token.
    static func signIn(_ app: Application, _ provider: FakeSocialProvider, subject: String) async throws -> String {
        try HTTP.token(of: try await signingIn(app, provider, subject: subject))
    }

    /// The response to a sign-in as `subject` with a fresh authorization code.
    static func signingIn(_ app: Application, _ provider: FakeSocialProvider, subject: String) async throws
        -> TestingHTTPResponse
    {
        let code = "c.\(UUID().uuidString)"
        provider.addAppleAuthorizationCode(code, subject: subject)
        let token = try provider.appleIdentityToken(subject: subject, email: "\(subject)@privaterelay.appleid.com")
        return try await HTTP.login(app, document(token: token, code: code))
    }

    static func count(_ table: String, _ app: Application) async throws -> Int {
        try await app.hale.database.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first()?
            .decode(column: "n", as: Int.self) ?? -1
    }

    static func deleteAccount(_ app: Application, bearer token: String) async throws {
        try await app.testing().test(.DELETE, "/api/v1/account", headers: .bearer(token)) { response in
            #expect(response.status == .ok)
        }
    }

    @Test(
        "the refresh token from the authorization code is sealed at rest and revoked when the account is deleted",
        arguments: TestDatabase.available)
    func revokedOnDeletion(database: TestDatabase) async throws {
        try await HTTP.withProvider(on: database) { app, provider in
            let token = try await Self.signIn(app, provider, subject: "001.apple")
            let sealed = try #require(
                try await app.hale.database.sql.select().column("refresh_token_sealed").from("social_identities")
                    .first(decodingColumn: "refresh_token_sealed", as: String.self))
            #expect(sealed.hasPrefix("kek1:") && !sealed.contains("r."))
            try await Self.deleteAccount(app, bearer: token)
            #expect(provider.revokedAppleSubjects == ["001.apple"])
            #expect(try await Self.count("apple_token_revocations", app) == 0)
        }
    }

    @Test(
        "a sign-in keeping a new Apple token while the account is deleted: both tokens are revoked",
        .racesNeedPostgreSQL, arguments: [TestDatabase.postgres])
    func signInRacingDeletion(database: TestDatabase) async throws {
        try await HTTP.withProvider(on: database) { app, provider in
            let token = try await Self.signIn(app, provider, subject: "006.apple")
            // The deletion is held once it has read the identity's token and queued it for revocation.
            let hold = try await WriteHold.install(after: .insert, on: "apple_token_revocations", in: app)
            let (_, signedIn) = try await hold.race(
                { try await Self.deleteAccount(app, bearer: token) },
                then: { try await Self.signingIn(app, provider, subject: "006.apple").status })
            #expect(signedIn == .conflict, "the account it signed in to is gone: the app tries again")
            let tokens = try #require(app.hale.socialSignIn.appleTokens)
            _ = try await tokens.revokeDue(logger: app.logger)
            #expect(provider.revokedAppleSubjects == ["006.apple", "006.apple"])
            #expect(try await tokens.pendingCount() == 0)
        }
    }

    @Test("a revocation Apple cannot take is kept and retried with backoff until it succeeds")
    func retried() async throws {
        let time = TestClock(Date())
        let provider = try await FakeSocialProvider.start()
        provider.useClock(time.clock)
        try await withHale(clock: time.clock, settings: provider.settings) { app in
            let token = try await Self.signIn(app, provider, subject: "002.apple")
            provider.setAppleAvailable(false)
            try await Self.deleteAccount(app, bearer: token)
            await #expect(throws: HaleError.invalidToken) { try await app.hale.personalAccessTokens.verify(token) }
            let tokens = try #require(app.hale.socialSignIn.appleTokens)
            #expect(try await tokens.pendingCount() == 1)
            #expect(try await tokens.revokeDue(logger: app.logger) == (0, 0), "not due again before its backoff")
            provider.setAppleAvailable(true)
            time.advance(.seconds(61))
            #expect(try await tokens.revokeDue(logger: app.logger) == (1, 0))
            #expect(provider.revokedAppleSubjects == ["002.apple"])
            #expect(try await tokens.pendingCount() == 0)
        }
        await provider.stop()
    }

    @Test("a newer code's token replaces the stored one unrevoked, and deleting the account revokes the one kept")
    func replacedTokenIsKeptUnrevoked() async throws {
        try await HTTP.withProvider { app, provider in
            _ = try await Self.signIn(app, provider, subject: "003.apple")
            let token = try await Self.signIn(app, provider, subject: "003.apple")
            let tokens = try #require(app.hale.socialSignIn.appleTokens)
            // Revoking the replaced token would end the person's whole authorization, the new token with it.
            #expect(try await tokens.revokeDue(logger: app.logger) == (0, 0))
            #expect(provider.revokedAppleSubjects.isEmpty)
            try await Self.deleteAccount(app, bearer: token)
            #expect(provider.revokedAppleSubjects == ["003.apple"])
        }
    }

    @Test("a code Apple refuses, or one of another user, is 401 and signs nobody in")
    func badCodes() async throws {
        try await HTTP.withProvider { app, provider in
            let token = try provider.appleIdentityToken(subject: "004.apple")
            let unknown = try await HTTP.login(app, Self.document(token: token, code: "c.unknown"))
            _ = try HTTP.errors(of: unknown, .unauthorized, indicator: "OAUTH_INVALID_TOKEN")
            provider.addAppleAuthorizationCode("c.other", subject: "005.other")
            let other = try await HTTP.login(app, Self.document(token: token, code: "c.other"))
            _ = try HTTP.errors(of: other, .unauthorized, indicator: "OAUTH_INVALID_TOKEN")
            #expect(try await Self.count("accounts", app) == 0)
        }
    }

    @Test("an authorization code is only for Apple")
    func codeIsOnlyForApple() async throws {
        try await withHale { app in
            let response = try await HTTP.login(
                app,
                #"{"data": {"attributes": {"provider": "google", "oauthToken": "t", "role": "client", "authorizationCode": "c"}}}"#
            )
            let errors = try HTTP.errors(of: response, .unprocessableEntity, indicator: "VALIDATION_FAILED")
            #expect(
                (errors.first?["source"] as? [String: Any])?["pointer"] as? String
                    == "/data/attributes/authorizationCode")
        }
    }

    static func notify(_ app: Application, _ payload: String) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(
            .POST, "/api/v1/auth/oauth/apple/notifications", headers: ["Content-Type": "application/json"],
            body: ByteBuffer(string: #"{"payload": "\#(payload)"}"#))
    }

    @Test("consent-revoked ends the Apple identity's tokens but keeps the link, so signing in again finds the account")
    func consentRevoked() async throws {
        try await HTTP.withProvider { app, provider in
            let token = try await Self.signIn(app, provider, subject: "006.apple")
            let account = try await HTTP.account(app, bearer: token)
            let notice = try provider.appleNotification("consent-revoked", subject: "006.apple")
            #expect(try await Self.notify(app, notice).status == .ok)
            await #expect(throws: HaleError.invalidToken) { try await app.hale.personalAccessTokens.verify(token) }
            let sealed = try await app.hale.database.sql.select().column("refresh_token_sealed")
                .from("social_identities").first(decodingColumn: "refresh_token_sealed", as: String?.self)
            #expect(sealed == .some(nil))
            let events = try await app.hale.audit.events(of: account.id)
            #expect(events.map(\.eventType) == ["apple_consent_revoked"])
            let again = try await Self.signIn(app, provider, subject: "006.apple")
            #expect(try await HTTP.account(app, bearer: again).id == account.id)
            #expect(try await Self.notify(app, notice).status == .ok, "a replay is harmless")
        }
    }

    @Test("account-delete unlinks the Apple identity and ends its tokens")
    func accountDelete() async throws {
        try await HTTP.withProvider { app, provider in
            let token = try await Self.signIn(app, provider, subject: "009.apple")
            let account = try await HTTP.account(app, bearer: token)
            let notice = try provider.appleNotification("account-delete", subject: "009.apple")
            #expect(try await Self.notify(app, notice).status == .ok)
            #expect(try await Self.count("social_identities", app) == 0)
            await #expect(throws: HaleError.invalidToken) { try await app.hale.personalAccessTokens.verify(token) }
            let events = try await app.hale.audit.events(of: account.id)
            #expect(events.map(\.eventType) == ["apple_identity_unlinked"])
        }
    }

    @Test("a verified event of a kind Hale does not act on is acknowledged")
    func unknownEventKind() async throws {
        try await HTTP.withProvider { app, provider in
            let notice = try provider.appleNotification("some-future-event", subject: "010")
            #expect(try await Self.notify(app, notice).status == .ok)
        }
    }

    @Test("email-disabled and email-enabled record whether the relay address forwards")
    func relayEmail() async throws {
        try await HTTP.withProvider { app, provider in
            _ = try await Self.signIn(app, provider, subject: "007.apple")
            func disabled() async throws -> Bool? {
                try await app.hale.database.sql.select().column("relay_email_disabled").from("social_identities")
                    .first(decodingColumn: "relay_email_disabled", as: Bool.self)
            }
            _ = try await Self.notify(app, try provider.appleNotification("email-disabled", subject: "007.apple"))
            #expect(try await disabled() == true)
            _ = try await Self.notify(app, try provider.appleNotification("email-enabled", subject: "007.apple"))
            #expect(try await disabled() == false)
        }
    }

    @Test("a notification that does not verify is 401, and a malformed body 422")
    func badNotifications() async throws {
        try await HTTP.withProvider { app, provider in
            let forged = try provider.appleNotification("account-delete", subject: "008", audience: "com.other.app")
            _ = try HTTP.errors(of: try await Self.notify(app, forged), .unauthorized, indicator: "OAUTH_INVALID_TOKEN")
            let response = try await app.testing().sendRequest(
                .POST, "/api/v1/auth/oauth/apple/notifications", headers: ["Content-Type": "application/json"],
                body: ByteBuffer(string: #"{"signedPayload": "x"}"#))
            _ = try HTTP.errors(of: response, .unprocessableEntity, indicator: "VALIDATION_FAILED")
        }
    }
}
