import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

@Suite("Personal access tokens")
struct PersonalAccessTokenTests {
    @Test(arguments: TestDatabase.available)
    func aTokenVerifiesUntilRevoked(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, token) = try await makeAccount(app)
            let parts = token.split(separator: "|")
            #expect(parts.count == 2)
            let verified = try await app.hale.personalAccessTokens.verify(token)
            #expect(verified.accountId == account.id)
            #expect(try await app.hale.personalAccessTokens.revoke(verified.id))
            await #expect(throws: HaleError.invalidToken) { try await app.hale.personalAccessTokens.verify(token) }
        }
    }

    @Test(arguments: TestDatabase.available)
    func onlyTheSecretsHashIsStored(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (_, token) = try await makeAccount(app)
            let secret = String(token.split(separator: "|")[1])
            let row = try #require(
                try await app.hale.database.sql.raw("SELECT secret_hash FROM personal_access_tokens").first())
            #expect(try row.decode(column: "secret_hash", as: String.self) == OpaqueToken.hash(secret))
        }
    }

    @Test func wrongOrMalformedTokensAreRejected() async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            let id = token.split(separator: "|")[0]
            for candidate in ["\(id)|wrong", "\(id)|", "|secret", "x|secret", "999|secret", "-1|secret", "0|s"] {
                await #expect(throws: HaleError.invalidToken) {
                    try await app.hale.personalAccessTokens.verify(candidate)
                }
            }
        }
    }
}

@Suite("Personal access tokens: expiry")
struct PersonalAccessTokenExpiryTests {
    @Test(
        "a token with an expiry works until then, and is TOKEN_EXPIRED from then on", arguments: TestDatabase.available)
    func expiresOnTime(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let token = try await app.hale.personalAccessTokens.create(
                for: account.id, name: "ci", expiresIn: .seconds(3600)
            ).token
            time.advance(.seconds(3599))
            #expect(try await app.hale.personalAccessTokens.verify(token).accountId == account.id)
            time.advance(.seconds(1))
            await #expect(throws: HaleError.expiredToken) { try await app.hale.personalAccessTokens.verify(token) }
        }
    }

    @Test("an expired token is refused over HTTP like a revoked one: 401, invalid_token, TOKEN_EXPIRED")
    func expiredOverHTTP() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let token = try await app.hale.personalAccessTokens.create(
                for: account.id, name: "ci", expiresIn: .seconds(60)
            ).token
            time.advance(.seconds(60))
            try await app.testing().test(.GET, "/api/v1/account", headers: .bearer(token)) { response in
                let error = try response.coreError()
                #expect(response.status == .unauthorized)
                #expect(error.error.code == "TOKEN_EXPIRED")
                #expect(
                    response.headers.first(name: .wwwAuthenticate) == #"Bearer realm="hale", error="invalid_token""#)
            }
        }
    }

    @Test("an expired token with a wrong secret is TOKEN_INVALID: its expiry is told only to its holder")
    func expiryIsToldOnlyToTheHolder() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let (id, _) = try await app.hale.personalAccessTokens.create(
                for: account.id, name: "ci", expiresIn: .seconds(60))
            time.advance(.seconds(61))
            await #expect(throws: HaleError.invalidToken) {
                try await app.hale.personalAccessTokens.verify("\(id)|\(OpaqueToken.generate())")
            }
        }
    }

    @Test("a revoked token is TOKEN_INVALID even after its expiry")
    func revokedWinsOverExpired() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let (id, token) = try await app.hale.personalAccessTokens.create(
                for: account.id, name: "ci", expiresIn: .seconds(60))
            try await app.hale.personalAccessTokens.revoke(id)
            time.advance(.seconds(61))
            await #expect(throws: HaleError.invalidToken) { try await app.hale.personalAccessTokens.verify(token) }
        }
    }

    @Test("a token without an expiry lasts until revoked")
    func noExpiry() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let (account, token) = try await makeAccount(app)
            time.advance(.seconds(3650 * 86_400))
            #expect(try await app.hale.personalAccessTokens.verify(token).accountId == account.id)
        }
    }

    @Test(
        "social sign-in's token expires after tokens.socialSignInTokenLifetime and records its provider",
        arguments: TestDatabase.available)
    func socialSignInTokenLifetime(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock, settings: ["tokens.socialSignInTokenLifetime": "1h"]) {
            app in
            let service = SocialSignInServiceTests.service(app, SocialSignInServiceTests.identity())
            let result = try await service.signIn(SocialSignInServiceTests.request(), logger: Logger(label: "test"))
            let listed = try #require(try await app.hale.personalAccessTokens.find(result.tokenId))
            #expect(listed.expiresAt == time.clock.now().addingTimeInterval(3600))
            #expect(listed.signInMethod == "google" && listed.name == "google sign-in")
            time.advance(.seconds(3599))
            _ = try await app.hale.personalAccessTokens.verify(result.token)
            time.advance(.seconds(1))
            await #expect(throws: HaleError.expiredToken) {
                try await app.hale.personalAccessTokens.verify(result.token)
            }
        }
    }

    @Test("the social sign-in token lifetime defaults to 30 days; the fresh sign-in window to 5 minutes")
    func defaults() throws {
        let configuration = try HaleConfiguration(ConfigValues())
        #expect(configuration.tokens.socialSignInTokenLifetime == .seconds(30 * 86_400))
        #expect(configuration.tokens.freshSignInWindow == .seconds(300))
    }

    static let notADuration = "must be a positive duration of at most 3650d, such as 30s, 15m, 12h or 30d, not"

    @Test(arguments: [
        ("tokens.socialSignInTokenLifetime", "0s", #"tokens.socialSignInTokenLifetime \#(notADuration) "0s""#),
        (
            "tokens.socialSignInTokenLifetime", "forever",
            #"tokens.socialSignInTokenLifetime \#(notADuration) "forever""#
        ),
        ("tokens.freshSignInWindow", "2h", "tokens.freshSignInWindow must be between 1s and 1h"),
        ("tokens.freshSignInWindow", "500ms", "tokens.freshSignInWindow must be between 1s and 1h"),
    ])
    func badLifetimesAreRejectedByName(key: String, value: String, message: String) {
        var values = ConfigValues()
        values[key] = value
        #expect(throws: ConfigError(message)) { try HaleConfiguration(values) }
    }
}
