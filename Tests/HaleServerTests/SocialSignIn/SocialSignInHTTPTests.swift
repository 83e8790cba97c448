import Crypto
import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// `POST /api/v1/auth/oauth/login` against fake Google, Apple and Facebook on loopback.
@Suite("HTTP: seed 003 social sign-in")
struct SocialSignInHTTPTests {
    /// Runs `body` with Hale pointed at a fresh fake provider.
    static func withProvider(
        on database: TestDatabase = .sqlite, settings: [String: String] = [:],
        _ body: (Application, FakeSocialProvider) async throws -> Void
    ) async throws {
        let provider = try await FakeSocialProvider.start()
        do {
            try await withHale(on: database, settings: provider.settings.merging(settings) { $1 }) { app in
                try await body(app, provider)
            }
        } catch {
            await provider.stop()
            throw error
        }
        await provider.stop()
    }

    static func document(provider: String, token: String, role: String = "client", nonce: String? = nil) -> String {
        let nonceMember = nonce.map { #", "nonce": "\#($0)""# } ?? ""
        return """
            {"data": {"attributes": {"provider": "\(provider)", "oauthToken": "\(token)", "role": "\(role)"\(nonceMember)},
              "relationships": {"deviceTokens": {"data": {"attributes": {"token": "fcm-\(provider)"}}}}}}
            """
    }

    static func login(_ app: Application, _ text: String, contentType: String = "application/json") async throws
        -> TestingHTTPResponse
    {
        try await app.testing().sendRequest(
            .POST, "/api/v1/auth/oauth/login", headers: ["Content-Type": contentType], body: ByteBuffer(string: text))
    }

    /// The success document's token, after checking its shape.
    static func token(
        of response: TestingHTTPResponse, role: String = "client", sourceLocation: SourceLocation = #_sourceLocation
    )
        throws -> String
    {
        #expect(response.status == .ok, "\(response.body.string)", sourceLocation: sourceLocation)
        #expect(response.headers.contentType == HTTPMediaType(type: "application", subType: "vnd.api+json"))
        let data = try #require(try response.json()["data"] as? [String: Any], sourceLocation: sourceLocation)
        let attributes = try #require(data["attributes"] as? [String: Any], sourceLocation: sourceLocation)
        #expect(data["type"] as? String == "auth-token", sourceLocation: sourceLocation)
        let token = try #require(attributes["token"] as? String, sourceLocation: sourceLocation)
        #expect(token.hasPrefix("\(data["id"] as? String ?? "-")|"), sourceLocation: sourceLocation)
        #expect(attributes["role"] as? String == role, sourceLocation: sourceLocation)
        return token
    }

    /// The JSON:API errors, after checking the shape the document's clients read.
    static func errors(
        of response: TestingHTTPResponse, _ status: HTTPStatus, indicator: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [[String: Any]] {
        #expect(response.status == status, "\(response.body.string)", sourceLocation: sourceLocation)
        let errors = try #require(try response.json()["errors"] as? [[String: Any]], sourceLocation: sourceLocation)
        for error in errors {
            #expect(error["status"] as? String == String(status.code), sourceLocation: sourceLocation)
            #expect(error["code"] as? String == status.reasonPhrase, sourceLocation: sourceLocation)
            #expect(error["title"] is String && error["detail"] is String, sourceLocation: sourceLocation)
            #expect(error["indicator"] as? String == indicator, sourceLocation: sourceLocation)
        }
        return errors
    }

    static func account(_ app: Application, bearer token: String) async throws -> HaleServer.Account {
        let verified = try await app.hale.personalAccessTokens.verify(token)
        return try #require(try await app.hale.accounts.find(verified.accountId))
    }

    @Test(
        "a Google ID token signs up, and the token it gets works as a bearer token", arguments: TestDatabase.available)
    func google(database: TestDatabase) async throws {
        try await Self.withProvider(on: database) { app, provider in
            let idToken = try provider.googleIDToken(subject: "g-1")
            let token = try Self.token(of: try await Self.login(app, Self.document(provider: "google", token: idToken)))
            try await app.testing().test(.GET, "/api/v1/account", headers: .bearer(token)) { response in
                #expect(response.status == .ok)
                let body = try response.json()
                #expect(body["email"] as? String == "ana@example.com")
                #expect(body["role"] as? String == "client")
            }
            let again = try Self.token(of: try await Self.login(app, Self.document(provider: "google", token: idToken)))
            #expect(try await Self.account(app, bearer: again).id == (try await Self.account(app, bearer: token)).id)
        }
    }

    @Test("an Apple identity token with the nonce raw or hashed; the email may be missing after the first sign-in")
    func apple() async throws {
        try await Self.withProvider { app, provider in
            let nonce = "n-0S6_WzA2Mj"
            let hashed = SHA256.hash(data: Data(nonce.utf8)).map { String(format: "%02x", $0) }.joined()
            let first = try provider.appleIdentityToken(
                subject: "001234.abcd", email: "x7k2@privaterelay.appleid.com", privateRelay: true, nonce: hashed)
            let token = try Self.token(
                of: try await Self.login(app, Self.document(provider: "apple", token: first, nonce: nonce)))
            let account = try await Self.account(app, bearer: token)
            #expect(account.email == "x7k2@privaterelay.appleid.com")
            let later = try provider.appleIdentityToken(subject: "001234.abcd", nonce: nonce)
            let again = try Self.token(
                of: try await Self.login(app, Self.document(provider: "apple", token: later, nonce: nonce)))
            #expect(try await Self.account(app, bearer: again).id == account.id)
        }
    }

    @Test("a Facebook user access token is checked through debug_token, and its profile read from /me")
    func facebookAccessToken() async throws {
        try await Self.withProvider { app, provider in
            provider.addFacebookUser(
                token: "EAAGm0PX4ZCpsBA", .init(id: "10158", name: "Ana", email: "ana@example.com"))
            let token = try Self.token(
                of: try await Self.login(app, Self.document(provider: "facebook", token: "EAAGm0PX4ZCpsBA")))
            #expect(try await Self.account(app, bearer: token).role == "client")
            #expect(provider.requestCount("/graph/v22.0/debug_token") == 1)
            #expect(provider.requestCount("/graph/v22.0/me") == 1)
        }
    }

    @Test(
        "a Google OAuth access token, as the seed's field table describes oauthToken, is checked with token info",
        arguments: TestDatabase.available)
    func googleAccessToken(database: TestDatabase) async throws {
        try await Self.withProvider(on: database) { app, provider in
            provider.addGoogleAccessToken("ya29.a0AfB_access", .init(subject: "g-access-1", email: "ana@example.com"))
            let token = try Self.token(
                of: try await Self.login(app, Self.document(provider: "google", token: "ya29.a0AfB_access")))
            let account = try await Self.account(app, bearer: token)
            #expect(account.role == "client")
            #expect(provider.requestCount("/google/tokeninfo") == 1 && provider.requestCount("/google/userinfo") == 1)
            // The same Google account signing in later with an ID token is the same identity.
            let idToken = try provider.googleIDToken(subject: "g-access-1", email: "ana@example.com")
            let again = try Self.token(of: try await Self.login(app, Self.document(provider: "google", token: idToken)))
            #expect(try await Self.account(app, bearer: again).id == account.id)
        }
    }

    @Test("a Google access token Google does not know, or issued to another app, is refused")
    func googleAccessTokenRefused() async throws {
        try await Self.withProvider { app, provider in
            var foreign = FakeSocialProvider.GoogleUser(subject: "g-2", email: nil)
            foreign.clientID = "someone-else.apps.googleusercontent.com"
            provider.addGoogleAccessToken("ya29.foreign", foreign)
            for token in ["ya29.unknown", "ya29.foreign"] {
                let response = try await Self.login(app, Self.document(provider: "google", token: token))
                _ = try Self.errors(of: response, .unauthorized, indicator: "OAUTH_INVALID_TOKEN")
            }
            #expect(provider.requestCount("/google/userinfo") == 0)
        }
    }

    @Test("an iOS Facebook Limited Login token is checked against Facebook's key set and the nonce")
    func facebookLimitedLogin() async throws {
        try await Self.withProvider { app, provider in
            let jwt = try provider.facebookLimitedLoginToken(subject: "10158", email: nil, nonce: "fb-nonce")
            _ = try Self.token(
                of: try await Self.login(app, Self.document(provider: "facebook", token: jwt, nonce: "fb-nonce")))
        }
    }

    @Test("the document's cleaner registration signs up a cleaner", arguments: TestDatabase.available)
    func cleaner(database: TestDatabase) async throws {
        try await Self.withProvider(on: database) { app, provider in
            let idToken = try provider.googleIDToken(subject: "g-cleaner")
            let text = OAuthLoginBodyTests.cleanerDocument.replacingOccurrences(of: "eyJ.a.b", with: idToken)
            let token = try Self.token(of: try await Self.login(app, text), role: "cleaner")
            #expect(try await Self.account(app, bearer: token).role == "cleaner")
        }
    }

    @Test("a token whose email_verified is false signs in, but its email is not used")
    func unverifiedEmail() async throws {
        try await Self.withProvider { app, provider in
            let idToken = try provider.googleIDToken(subject: "g-2", emailVerified: false)
            let token = try Self.token(of: try await Self.login(app, Self.document(provider: "google", token: idToken)))
            let account = try await Self.account(app, bearer: token)
            #expect(account.email == nil)
        }
    }

    /// Every token a provider or an attacker could send that must be refused, with the one documented error.
    static func refusedTokens(_ provider: FakeSocialProvider) throws -> [(String, String, String?, String)] {
        let google = FakeSocialProvider.googleClientID
        let header = try JSONSerialization.data(withJSONObject: ["alg": "none", "typ": "JWT"])
        let unsigned = try provider.googleIDToken(subject: "g").split(separator: ".")
        let hmacInput = try provider.token(
            ["iss": "https://accounts.google.com", "aud": google, "sub": "g"], expiresIn: 600,
            header: ["alg": "HS256", "kid": FakeSocialProvider.keyID, "typ": "JWT"]
        ).split(separator: ".").prefix(2).joined(separator: ".")
        let publicKeyAsSecret = SymmetricKey(data: Data(provider.publicKeyPEM.utf8))
        let hmac = HMAC<SHA256>.authenticationCode(for: Data(hmacInput.utf8), using: publicKeyAsSecret)
        var tampered = try provider.googleIDToken(subject: "g")
        tampered.removeLast(4)
        tampered += "AAAA"
        return [
            ("expired", "google", nil, try provider.googleIDToken(subject: "g", expiresIn: -600)),
            ("wrong audience", "google", nil, try provider.googleIDToken(subject: "g", audience: "someone-else")),
            ("wrong issuer", "google", nil, try provider.googleIDToken(subject: "g", issuer: "https://evil.example")),
            ("bad signature", "google", nil, tampered),
            (
                "unknown kid", "google", nil,
                try provider.token(
                    ["iss": "https://accounts.google.com", "aud": google, "sub": "g"], expiresIn: 600,
                    header: ["alg": "RS256", "kid": "rotated-away", "typ": "JWT"])
            ),
            ("alg none", "google", nil, "\(FakeSocialProvider.base64URL(header)).\(unsigned[1])."),
            ("HS256 with the public key", "google", nil, "\(hmacInput).\(FakeSocialProvider.base64URL(Data(hmac)))"),
            ("nonce mismatch", "apple", "the-nonce", try provider.appleIdentityToken(subject: "a", nonce: "other")),
            (
                "missing email_verified", "google", nil,
                try provider.token(
                    ["iss": "accounts.google.com", "aud": google, "sub": "g", "email": "ana@example.com"],
                    expiresIn: 600)
            ),
            ("not a token at all", "google", nil, "not-a-jwt"),
        ]
    }

    @Test("each refused token gets 401 OAUTH_INVALID_TOKEN in the document's shape, and creates nothing")
    func refusedTokens() async throws {
        try await Self.withProvider { app, provider in
            for (reason, name, nonce, token) in try Self.refusedTokens(provider) {
                let response = try await Self.login(app, Self.document(provider: name, token: token, nonce: nonce))
                let errors = try Self.errors(of: response, .unauthorized, indicator: "OAUTH_INVALID_TOKEN")
                #expect(errors.count == 1, "\(reason)")
                #expect(errors.first?["title"] as? String == "OAuth authentication failed", "\(reason)")
            }
            let accounts = try await app.hale.database.sql.raw("SELECT COUNT(*) AS n FROM accounts").first()?
                .decode(column: "n", as: Int.self)
            #expect(accounts == 0)
        }
    }

    @Test("a Facebook access token that debug_token calls invalid is refused")
    func facebookInvalid() async throws {
        try await Self.withProvider { app, provider in
            var user = FakeSocialProvider.FacebookUser(id: "1", name: "Ana", email: nil)
            user.isValid = false
            provider.addFacebookUser(token: "EAAinvalid", user)
            let response = try await Self.login(app, Self.document(provider: "facebook", token: "EAAinvalid"))
            _ = try Self.errors(of: response, .unauthorized, indicator: "OAUTH_INVALID_TOKEN")
            #expect(provider.requestCount("/graph/v22.0/me") == 0)
        }
    }

    @Test("the key set is fetched once and then served from the cache")
    func keySetCache() async throws {
        try await Self.withProvider { app, provider in
            for subject in ["a", "b", "c"] {
                let idToken = try provider.googleIDToken(subject: subject, email: nil)
                _ = try Self.token(of: try await Self.login(app, Self.document(provider: "google", token: idToken)))
            }
            #expect(provider.requestCount("/google/certs") == 1)
        }
    }

    @Test("a provider that cannot be reached gets 503 OAUTH_ERROR")
    func providerDown() async throws {
        let closed = "http://127.0.0.1:\(try freeLoopbackPort())/certs"
        try await Self.withProvider(settings: ["socialSignIn.google.keySetUrl": closed]) { app, provider in
            let response = try await Self.login(
                app, Self.document(provider: "google", token: try provider.googleIDToken(subject: "g")))
            _ = try Self.errors(of: response, .serviceUnavailable, indicator: "OAUTH_ERROR")
        }
    }

    @Test("a provider without configuration is refused at the provider field")
    func providerNotConfigured() async throws {
        try await withHale { app in
            let response = try await Self.login(app, Self.document(provider: "apple", token: "a.b.c"))
            let errors = try Self.errors(of: response, .unprocessableEntity, indicator: "VALIDATION_FAILED")
            #expect((errors.first?["source"] as? [String: Any])?["pointer"] as? String == "/data/attributes/provider")
        }
    }

    @Test("a verified email that belongs to another account is 409 OAUTH_ERROR")
    func emailTaken() async throws {
        try await Self.withProvider { app, provider in
            _ = try await makeAccount(app, email: "ana@example.com")
            let response = try await Self.login(
                app, Self.document(provider: "google", token: try provider.googleIDToken(subject: "g")))
            _ = try Self.errors(of: response, .conflict, indicator: "OAUTH_ERROR")
        }
    }

    @Test("invalid fields get 422 with one error per field and its pointer")
    func validation() async throws {
        try await withHale { app in
            let response = try await Self.login(
                app, #"{"data": {"attributes": {"provider": "myspace", "oauthToken": "", "role": "client"}}}"#)
            let errors = try Self.errors(of: response, .unprocessableEntity, indicator: "VALIDATION_FAILED")
            let pointers = errors.compactMap { ($0["source"] as? [String: Any])?["pointer"] as? String }
            #expect(pointers == ["/data/attributes/provider", "/data/attributes/oauthToken"])
        }
    }

    @Test("malformed JSON is 400 and another media type 415, both as JSON:API errors")
    func malformed() async throws {
        try await withHale { app in
            _ = try Self.errors(of: try await Self.login(app, "{\"data\": "), .badRequest, indicator: "INVALID_REQUEST")
            _ = try Self.errors(
                of: try await Self.login(app, "provider=google", contentType: "application/x-www-form-urlencoded"),
                .unsupportedMediaType, indicator: "UNSUPPORTED_MEDIA_TYPE")
            _ = try Self.errors(
                of: try await Self.login(app, "{}", contentType: "application/vnd.api+json"), .unprocessableEntity,
                indicator: "VALIDATION_FAILED")
        }
    }

    @Test("a document with many errors gets the first twenty and a note, and long service lists are refused")
    func errorCaps() async throws {
        try await withHale { app in
            let unknown = (0..<100).map { "\"x\($0)\": 1" }.joined(separator: ", ")
            let many = try await Self.login(
                app,
                #"{"data": {"attributes": {"provider": "google", "oauthToken": "t", "role": "client", "# + unknown
                    + "}}}")
            #expect(try Self.errors(of: many, .unprocessableEntity, indicator: "VALIDATION_FAILED").count == 21)
            let services = (1...51).map { #"{"type": "service", "id": \#($0)}"# }.joined(separator: ",")
            let document =
                #"{"data": {"attributes": {"provider": "google", "oauthToken": "t", "role": "client"}, "#
                + #""relationships": {"previousServices": {"data": ["# + services + "]}}}}"
            let long = try await Self.login(app, document)
            #expect(try Self.errors(of: long, .unprocessableEntity, indicator: "VALIDATION_FAILED").count == 1)
        }
    }

    @Test("sign-in requests beyond the client's budget get 429")
    func rateLimited() async throws {
        try await withHale(settings: ["rateLimits.socialSignInPerIp": "2/1m"]) { app in
            var statuses: [HTTPStatus] = []
            let running = try app.testing(method: .running(hostname: "127.0.0.1", port: try freeLoopbackPort()))
            for _ in 0..<3 {
                let response = try await running.sendRequest(
                    .POST, "/api/v1/auth/oauth/login", headers: ["Content-Type": "application/json"],
                    body: ByteBuffer(string: #"{"data": {"attributes": {}}}"#))
                statuses.append(response.status)
            }
            #expect(statuses == [.unprocessableEntity, .unprocessableEntity, .tooManyRequests])
        }
    }
}
