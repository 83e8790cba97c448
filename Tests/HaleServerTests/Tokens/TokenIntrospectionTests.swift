import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

@Suite("Token introspection (RFC 7662), for the app's backend")
struct TokenIntrospectionTests {
    private static func introspect(
        _ app: Application, _ body: String, adminKey: String?, contentType: String = "application/x-www-form-urlencoded"
    ) async throws -> TestingHTTPResponse {
        var headers: HTTPHeaders = ["Content-Type": contentType]
        if let adminKey { headers.add(name: .authorization, value: "Bearer \(adminKey)") }
        return try await app.testing().sendRequest(
            .POST, "/api/v1/admin/introspect", headers: headers, body: ByteBuffer(string: body))
    }

    private static func form(_ token: String) -> String {
        "token=" + (token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token)
    }

    @Test(
        "an access token is active while its session is open, with its claims; inactive once signed out",
        arguments: TestDatabase.available)
    func accessTokens(database: TestDatabase) async throws {
        try await withHale(on: database, settings: ["tokens.audiences": "api.example.com"]) { app in
            let adminKey = try await app.hale.adminKeys.create(name: "backend").key
            let account = try await app.hale.accounts.create(email: try AccountEmail("a@example.com"), role: "user")
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "passkey", rememberMe: false)
            let response = try await Self.introspect(app, Self.form(pair.accessToken), adminKey: adminKey)
            #expect(response.status == .ok)
            #expect(response.headers.first(name: .cacheControl) == "no-store")
            let answer = try response.content.decode(IntrospectionResponse.self)
            #expect(answer.active)
            #expect(answer.sub == account.id.description)
            #expect(answer.sid == pair.sessionId.description)
            #expect(answer.aud == ["api.example.com"])
            #expect(answer.iss == "hale")
            #expect(answer.tokenType == "Bearer")
            #expect(answer.haleTokenKind == "access_token")
            #expect(answer.signInMethod == "passkey")
            #expect(answer.exp == Int64(pair.accessTokenExpiresAt.timeIntervalSince1970.rounded(.down)))

            #expect(try await app.hale.sessions.revoke(pair.sessionId, of: account.id))
            let after = try await Self.introspect(app, Self.form(pair.accessToken), adminKey: adminKey)
            #expect(after.body.string == #"{"active":false}"#)
        }
    }

    @Test(
        "a personal access token is active until revoked; refresh tokens and other text never are",
        arguments: TestDatabase.available)
    func personalAccessTokensAndTheRest(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let adminKey = try await app.hale.adminKeys.create(name: "backend").key
            let (account, token) = try await makeAccount(app)
            let answer = try await Self.introspect(app, Self.form(token), adminKey: adminKey).content.decode(
                IntrospectionResponse.self)
            #expect(answer.active)
            #expect(answer.haleTokenKind == "personal_access_token")
            #expect(answer.sub == account.id.description)
            #expect(answer.exp == nil)
            #expect(answer.jti == token.split(separator: "|").first.map(String.init))

            let id = try #require(Int64(answer.jti ?? ""))
            #expect(try await app.hale.personalAccessTokens.revoke(id))
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "passkey", rememberMe: false)
            // A character well inside the signature, all of whose bits count: the last two may already be "AA".
            var characters = Array(pair.accessToken)
            let inside = characters.count - 10
            characters[inside] = characters[inside] == "A" ? "B" : "A"
            let tampered = String(characters)
            for inactive in [token, pair.refreshToken, tampered, "x", String(repeating: "a", count: 5_000)] {
                let response = try await Self.introspect(app, Self.form(inactive), adminKey: adminKey)
                #expect(response.status == .ok)
                #expect(response.body.string == #"{"active":false}"#, "\(inactive.prefix(20))")
            }
        }
    }

    @Test("only an admin key may ask, only as a form, only for token and token_type_hint")
    func refusals() async throws {
        try await withHale { app in
            let adminKey = try await app.hale.adminKeys.create(name: "backend").key
            let (_, token) = try await makeAccount(app)
            #expect(try await Self.introspect(app, Self.form(token), adminKey: nil).status == .unauthorized)
            #expect(try await Self.introspect(app, Self.form(token), adminKey: token).status == .unauthorized)
            let json = try await Self.introspect(
                app, #"{"token":"x"}"#, adminKey: adminKey, contentType: "application/json")
            #expect(json.status == .unsupportedMediaType)
            for body in ["", "token=", "token=x&scope=all", "token_type_hint=access_token"] {
                let response = try await Self.introspect(app, body, adminKey: adminKey)
                #expect(response.status == .badRequest, "\(body)")
                #expect(try response.coreError().error.code == "INVALID_REQUEST")
            }
            let hinted = try await Self.introspect(
                app, Self.form(token) + "&token_type_hint=refresh_token", adminKey: adminKey)
            #expect(try hinted.content.decode(IntrospectionResponse.self).active)
        }
    }
}
