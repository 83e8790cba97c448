import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// `GET /api/v1/account/tokens` and `DELETE /api/v1/account/tokens/{tokenId}`: a person sees and revokes their own
/// personal access tokens, and only theirs.
@Suite("HTTP: the account's personal access tokens")
struct PersonalAccessTokenRoutesTests {
    static func list(_ app: Application, bearer: String) async throws -> [[String: Any]] {
        let response = try await app.testing().sendRequest(.GET, "/api/v1/account/tokens", headers: .bearer(bearer))
        #expect(response.status == .ok)
        return try #require(try response.json()["tokens"] as? [[String: Any]])
    }

    static func revoke(_ app: Application, _ id: String, bearer: String) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(.DELETE, "/api/v1/account/tokens/\(id)", headers: .bearer(bearer))
    }

    static func id(of token: String) -> String {
        String(token.split(separator: "|")[0])
    }

    @Test(
        "the listing holds the account's working tokens, newest first, the caller's marked, no secrets",
        arguments: TestDatabase.available)
    func listing(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let (account, first) = try await makeAccount(app)
            let (_, othersToken) = try await makeAccount(app, email: "other@example.com")
            let tokens = app.hale.personalAccessTokens
            let revoked = try await tokens.create(for: account.id, name: "revoked")
            try await tokens.revoke(revoked.id)
            _ = try await tokens.create(for: account.id, name: "expired", expiresIn: .seconds(60))
            let social = try await tokens.create(
                for: account.id, name: "google sign-in", expiresIn: .seconds(86_400), signInMethod: "google")
            time.advance(.seconds(60))
            let created = ISO8601.string(time.clock.now().addingTimeInterval(-60))

            let listed = try await Self.list(app, bearer: first)
            #expect(listed.map { $0["name"] as? String } == ["google sign-in", "test"])
            #expect(listed.map { $0["current"] as? Bool } == [false, true])
            #expect(listed[0]["id"] as? Int == Int(social.id))
            #expect(listed[0]["createdAt"] as? String == created)
            #expect(listed[0]["expiresAt"] as? String == ISO8601.string(time.clock.now().addingTimeInterval(86_340)))
            #expect(listed[0]["lastUsedAt"] is NSNull && listed[1]["expiresAt"] is NSNull)
            #expect(listed[1]["lastUsedAt"] as? String == ISO8601.string(time.clock.now()), "this request's use")
            #expect(Set(listed[0].keys) == ["id", "name", "createdAt", "lastUsedAt", "expiresAt", "current"])
            let body = try await app.testing().sendRequest(.GET, "/api/v1/account/tokens", headers: .bearer(first))
                .body.string
            let secret = String(social.token.split(separator: "|")[1])
            #expect(!body.contains(secret) && !body.contains(OpaqueToken.hash(secret)))
            #expect(try await Self.list(app, bearer: othersToken).map { $0["name"] as? String } == ["test"])
        }
    }

    @Test("with an access token, no token is marked current")
    func listingWithAnAccessToken() async throws {
        try await withHale { app in
            let (account, _) = try await makeAccount(app)
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "passkey", rememberMe: false)
            #expect(try await Self.list(app, bearer: pair.accessToken).map { $0["current"] as? Bool } == [false])
        }
    }

    @Test(arguments: ["0", "501", "many"])
    func aLimitOutOfRangeIs400(limit: String) async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            try await app.testing().test(.GET, "/api/v1/account/tokens?limit=\(limit)", headers: .bearer(token)) {
                #expect($0.status == .badRequest)
                let error = try $0.coreError()
                #expect(error.error.code == "INVALID_REQUEST")
            }
        }
    }

    @Test("revoking one of the account's tokens ends it at once and is audited", arguments: TestDatabase.available)
    func revokeOwn(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, token) = try await makeAccount(app)
            let spare = try await app.hale.personalAccessTokens.create(for: account.id, name: "spare")
            let response = try await Self.revoke(app, String(spare.id), bearer: token)
            #expect(response.status == .ok)
            #expect(try response.json()["success"] as? Bool == true)
            try await app.testing().test(.GET, "/api/v1/account", headers: .bearer(spare.token)) {
                #expect($0.status == .unauthorized)
                let error = try $0.coreError()
                #expect(error.error.code == "TOKEN_INVALID")
            }
            #expect(try await Self.list(app, bearer: token).map { $0["name"] as? String } == ["test"])
            let events = try await app.hale.audit.events(of: account.id)
            #expect(events.map(\.eventType) == ["personal_access_token_revoked"])
            #expect(events.first?.details == #"{"by":"owner","tokenId":"\#(spare.id)"}"#)
        }
    }

    @Test("a token may revoke itself, like a logout")
    func revokeSelf() async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            #expect(try await Self.revoke(app, Self.id(of: token), bearer: token).status == .ok)
            try await app.testing().test(.GET, "/api/v1/account", headers: .bearer(token)) {
                #expect($0.status == .unauthorized)
            }
        }
    }

    @Test(
        "another account's token is a 404 and stays working; nothing is audited", arguments: TestDatabase.available)
    func anotherAccountsTokenIsNotFound(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, token) = try await makeAccount(app)
            let (other, othersToken) = try await makeAccount(app, email: "other@example.com")
            let response = try await Self.revoke(app, Self.id(of: othersToken), bearer: token)
            #expect(response.status == .notFound)
            #expect(try response.coreError().error.code == "RESOURCE_NOT_FOUND")
            #expect(try await app.hale.bearerTokens.verify(othersToken).accountId == other.id)
            #expect(try await app.hale.audit.events(of: account.id).isEmpty)
            #expect(try await app.hale.audit.events(of: other.id).isEmpty)
        }
    }

    @Test("a token already revoked is a 404")
    func alreadyRevoked() async throws {
        try await withHale { app in
            let (account, token) = try await makeAccount(app)
            let spare = try await app.hale.personalAccessTokens.create(for: account.id, name: "spare")
            #expect(try await Self.revoke(app, String(spare.id), bearer: token).status == .ok)
            let again = try await Self.revoke(app, String(spare.id), bearer: token)
            #expect(again.status == .notFound)
            #expect(try again.coreError().error.code == "RESOURCE_NOT_FOUND")
        }
    }

    @Test(arguments: ["999999", "abc", "-1", "0", "99999999999999999999"])
    func anIdOfNoTokenIsA404(id: String) async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            let response = try await Self.revoke(app, id, bearer: token)
            #expect(response.status == .notFound)
            #expect(try response.coreError().error.code == "RESOURCE_NOT_FOUND")
        }
    }

    @Test("both routes need a bearer token")
    func unauthenticated() async throws {
        try await withHale { app in
            for (method, path) in [(HTTPMethod.GET, "/api/v1/account/tokens"), (.DELETE, "/api/v1/account/tokens/1")] {
                try await app.testing().test(method, path) {
                    #expect($0.status == .unauthorized)
                    let error = try $0.coreError()
                    #expect(error.error.code == "UNAUTHORIZED")
                }
            }
        }
    }
}
