import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

@Suite("HTTP: sessions and bearer authentication")
struct HTTPSessionTests {
    @Test(arguments: TestDatabase.available)
    func aPersonalAccessTokenAndAnAccessTokenBothAuthenticate(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, token) = try await makeAccount(app)
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            for bearer in [token, pair.accessToken] {
                try await app.testing().test(.GET, "/api/v1/account", headers: .bearer(bearer)) { response in
                    #expect(response.status == .ok)
                    let body = try response.json()
                    #expect(body["id"] as? String == account.id.description)
                    #expect(body["email"] as? String == "person@example.com")
                    #expect(body["role"] as? String == "user")
                }
            }
        }
    }

    @Test func missingAndInvalidTokensGet401InTheCoreShape() async throws {
        try await withHale { app in
            let cases: [(HTTPHeaders, String)] = [
                ([:], "UNAUTHORIZED"),
                (.bearer("garbage"), "TOKEN_INVALID"),
                (.bearer("1|nope"), "TOKEN_INVALID"),
                (["Authorization": "Basic dXNlcjpwYXNz"], "UNAUTHORIZED"),
            ]
            for (headers, code) in cases {
                try await app.testing().test(.GET, "/api/v1/account", headers: headers) { response in
                    #expect(response.status == .unauthorized)
                    let body = try response.coreError()
                    #expect(body.success == false)
                    #expect(body.error.code == code)
                    let challenge = response.headers.first(name: .wwwAuthenticate) ?? ""
                    #expect(challenge.hasPrefix("Bearer realm=\"hale\""))
                    #expect(challenge.contains("invalid_token") == (code == "TOKEN_INVALID"))
                }
            }
        }
    }

    /// Clients refresh on `error="invalid_token"` and on nothing else: a 401 for a failed signature or attestation
    /// must not cost a refresh, or, for a token that cannot refresh, the session.
    @Test func onlyARefusedBearerTokenChallengesInEveryShape() async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            for path in ["/api/v1/account", "/health/today", "/api/v1/health/consent"] {
                try await app.testing().test(.GET, path, headers: .bearer("garbage")) { response in
                    #expect(response.status == .unauthorized)
                    #expect(response.headers.first(name: .wwwAuthenticate)?.contains(#"error="invalid_token""#) == true)
                }
            }
            let forged = #"{"sessionId":"00000000-0000-0000-0000-000000000000","signedChallenge":"AAAA"}"#
            var headers = HTTPHeaders.bearer(token)
            headers.contentType = .json
            try await app.testing().test(
                .POST, "/api/v1/devices/register/verify", headers: headers, body: .init(string: forged)
            ) { response in
                #expect(response.status.code >= 400 && response.status.code < 500)
                #expect(response.headers.first(name: .wwwAuthenticate) == nil)
            }
        }
    }

    @Test func anExpiredAccessTokenGetsTokenExpired() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            time.advance(.seconds(901))
            try await app.testing().test(.GET, "/api/v1/account", headers: .bearer(pair.accessToken)) { response in
                let error = try response.coreError()
                #expect(response.status == .unauthorized)
                #expect(error.error.code == "TOKEN_EXPIRED")
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func refreshOverHTTP(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, _) = try await makeAccount(app)
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: true)
            try await app.testing().test(
                .POST, "/api/v1/auth/refresh", headers: .json(),
                body: .json(#"{"refreshToken":"\#(pair.refreshToken)"}"#)
            ) { response in
                #expect(response.status == .ok)
                let body = try response.json()
                #expect((body["refreshToken"] as? String)?.count == 43)
                #expect((body["accessToken"] as? String)?.split(separator: ".").count == 3)
                let expiry = try #require(body["refreshTokenExpiresAt"] as? String)
                #expect(expiry.hasSuffix("Z") && expiry.contains("."))
            }
        }
    }

    @Test func logoutRevokesTheSessionAtOnce() async throws {
        try await withHale { app in
            let (account, _) = try await makeAccount(app)
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            try await app.testing().test(.POST, "/api/v1/auth/logout", headers: .bearer(pair.accessToken)) {
                let body = try $0.json()
                #expect($0.status == .ok)
                #expect(body["success"] as? Bool == true)
            }
            try await app.testing().test(.GET, "/api/v1/account", headers: .bearer(pair.accessToken)) {
                #expect($0.status == .unauthorized)
            }
        }
    }

    @Test func logoutWithAPersonalAccessTokenRevokesIt() async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            try await app.testing().test(.POST, "/api/v1/auth/logout", headers: .bearer(token)) {
                #expect($0.status == .ok)
            }
            try await app.testing().test(.GET, "/api/v1/account", headers: .bearer(token)) {
                #expect($0.status == .unauthorized)
            }
        }
    }

    @Test(
        "signing out everywhere revokes every session and personal access token of the account, audited",
        arguments: TestDatabase.available)
    func logoutEverywhereRevokesEverySessionAndPersonalAccessToken(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, token) = try await makeAccount(app)
            let social = try await app.hale.personalAccessTokens.create(
                for: account.id, name: "google sign-in", expiresIn: .seconds(3600), signInMethod: "google")
            let (other, othersToken) = try await makeAccount(app, email: "other@example.com")
            let one = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "a", rememberMe: false)
            let two = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "b", rememberMe: false)
            try await app.testing().test(.POST, "/api/v1/auth/logout-all", headers: .bearer(one.accessToken)) {
                #expect($0.status == .ok)
            }
            for revoked in [one.accessToken, two.accessToken, token, social.token] {
                try await app.testing().test(.GET, "/api/v1/account", headers: .bearer(revoked)) {
                    #expect($0.status == .unauthorized)
                    let error = try $0.coreError()
                    #expect(error.error.code == "TOKEN_INVALID")
                }
            }
            await #expect(throws: HaleError.invalidToken) { try await app.hale.sessions.refresh(two.refreshToken) }
            let events = try await app.hale.audit.events(of: account.id)
            #expect(events.map(\.eventType) == ["signed_out_everywhere"])
            #expect(events.first?.details == #"{"personalAccessTokens":"2","sessions":"2"}"#)
            #expect(events.first?.sessionId == one.sessionId)
            #expect(try await app.hale.bearerTokens.verify(othersToken).accountId == other.id)
        }
    }

    @Test("an operator's personal access token cannot sign out everywhere; a fresh sign-in can, the token included")
    func logoutEverywhereWithAPersonalAccessToken() async throws {
        try await withHale { app in
            let (account, token) = try await makeAccount(app)
            let session = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "passkey", rememberMe: false)
            let refused = try await app.testing().sendRequest(.POST, "/api/v1/auth/logout-all", headers: .bearer(token))
            #expect(refused.status == .unauthorized)
            #expect(try refused.coreError().error.code == "FRESH_SIGN_IN_REQUIRED")
            try await app.testing().test(.GET, "/api/v1/account", headers: .bearer(token)) { #expect($0.status == .ok) }
            try await app.testing().test(.POST, "/api/v1/auth/logout-all", headers: .bearer(session.accessToken)) {
                #expect($0.status == .ok)
            }
            for revoked in [token, session.accessToken] {
                try await app.testing().test(.GET, "/api/v1/account", headers: .bearer(revoked)) {
                    #expect($0.status == .unauthorized)
                }
            }
        }
    }

    @Test func personalAccessTokensCannotBeHandedOff() async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            try await app.testing().test(.POST, "/api/v1/auth/handoff", headers: .bearer(token)) {
                let error = try $0.coreError()
                #expect($0.status == .forbidden)
                #expect(error.error.code == "FORBIDDEN")
            }
        }
    }

    @Test func aHandoffCodeOfALoggedOutSessionIsWorthless() async throws {
        try await withHale { app in
            let (account, _) = try await makeAccount(app)
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "passkey", rememberMe: false)
            let issued = try await app.testing().sendRequest(
                .POST, "/api/v1/auth/handoff", headers: .bearer(pair.accessToken))
            let code = try #require(try issued.json()["code"] as? String)
            try await app.hale.sessions.revoke(pair.sessionId, of: account.id)
            let redeemed = try await app.testing().sendRequest(
                .POST, "/api/v1/auth/handoff/redeem", headers: .json(), body: .json(#"{"code":"\#(code)"}"#))
            #expect(redeemed.status == .badRequest)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aHandoffCodeIsRedeemedOnceForAnAccessTokenOfTheSameSession(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, _) = try await makeAccount(app)
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "passkey", rememberMe: false)
            var code = ""
            try await app.testing().test(.POST, "/api/v1/auth/handoff", headers: .bearer(pair.accessToken)) {
                #expect($0.status == .created)
                code = try #require(try $0.json()["code"] as? String)
            }
            let body = ByteBuffer.json(#"{"code":"\#(code)"}"#)
            try await app.testing().test(.POST, "/api/v1/auth/handoff/redeem", headers: .json(), body: body) {
                #expect($0.status == .ok)
                let token = try #require(try $0.json()["accessToken"] as? String)
                let claims = try await app.hale.accessTokens.verify(token)
                #expect(claims.sid == pair.sessionId.description)
                #expect(claims.signInMethod == "handoff")
                let issuing = try await app.hale.accessTokens.verify(pair.accessToken)
                #expect(claims.exp.value <= issuing.exp.value, "a handoff never extends access")
            }
            try await app.testing().test(.POST, "/api/v1/auth/handoff/redeem", headers: .json(), body: body) {
                let error = try $0.coreError()
                #expect($0.status == .badRequest)
                #expect(error.error.code == "INVALID_CHALLENGE")
            }
        }
    }
}
