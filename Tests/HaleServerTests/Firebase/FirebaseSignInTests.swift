import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting
import WebAuthn

@testable import HaleServer

/// Seed 000's Firebase app end to end: it registers a passkey with its Firebase ID token as the bearer, signs in with
/// the passkey, and gets a custom token Firebase accepts, with Hale's own tokens beside it.
@Suite("HTTP: seed 000 with Firebase")
struct FirebaseSignInTests {
    static let uid = "pW4shFirebaseUid00000000001"
    static var today: String { String(ISO8601.string(Date()).prefix(10)) }

    @Test(arguments: TestDatabase.available)
    func aFirebaseBearerRegistersAPasskeyAndSignInAnswersACustomToken(database: TestDatabase) async throws {
        try await FirebaseHarness.run(on: database) { harness in
            let idToken = try harness.firebase.idToken(uid: Self.uid, email: "Ana@Example.com")
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await harness.registerPasskey(bearer: idToken, passkey: &passkey)
            let account = try await harness.account(bearer: idToken)
            #expect(try await harness.app.hale.accounts.find(account)?.email == "ana@example.com")

            let response = try await harness.signIn(passkey: &passkey)
            #expect(response.status == .ok, "\(response.body.string)")
            let body = try response.json()
            #expect(
                Set(body.keys) == [
                    "token", "accessToken", "refreshToken", "expiresAt", "refreshTokenExpiresAt", "accountId",
                ])
            #expect(body["accountId"] as? String == account.description)

            let customToken = try #require(body["token"] as? String)
            let (header, claims) = try #require(harness.firebase.verifiedCustomToken(customToken))
            #expect(header.count == 3)
            #expect(header["alg"] as? String == "RS256")
            #expect(header["typ"] as? String == "JWT")
            #expect(header["kid"] as? String == FakeFirebase.serviceAccountKeyID)
            #expect(claims.count == 6)
            #expect(claims["iss"] as? String == FakeFirebase.clientEmail)
            #expect(claims["sub"] as? String == FakeFirebase.clientEmail)
            #expect(claims["aud"] as? String == FirebaseCustomTokenAudience.value)
            #expect(claims["uid"] as? String == Self.uid)
            let issuedAt = try #require(claims["iat"] as? Int)
            #expect(abs(Double(issuedAt) - Date().timeIntervalSince1970) < 60)
            #expect(claims["exp"] as? Int == issuedAt + 3600)

            let accessToken = try #require(body["accessToken"] as? String)
            let hale = try await harness.app.hale.accessTokens.verify(accessToken)
            #expect(hale.sub.value == account.description)
            #expect(hale.signInMethod == "passkey")
            let refreshed = try await harness.app.testing().sendRequest(
                .POST, "/api/v1/auth/refresh", headers: .json(),
                body: ByteBuffer(
                    data: try JSONEncoder().encode(["refreshToken": try #require(body["refreshToken"] as? String)])))
            #expect(refreshed.status == .ok, "Hale's refresh token renews Hale's session")
        }
    }

    @Test("A Firebase ID token whose auth_time is older than the window adds no passkey: auth/requires-recent-login")
    func aStaleFirebaseSignInAddsNoPasskey() async throws {
        try await FirebaseHarness.run { harness in
            let now = Int(Date().timeIntervalSince1970)
            let stale = try harness.firebase.idToken(uid: Self.uid, changes: ["auth_time": now - 301])
            let response = try await harness.post(
                "/api/mobile/biometric/register/options", ["platform": "ios"], bearer: stale)
            #expect(response.status == .unauthorized)
            #expect(try response.coreError().error.code == "auth/requires-recent-login")
            let fresh = try harness.firebase.idToken(uid: Self.uid, changes: ["auth_time": now - 240])
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await harness.registerPasskey(bearer: fresh, passkey: &passkey)
        }
    }

    @Test("The same uid twice is the same account, and its passkeys are the account's")
    func sameUIDSameAccount() async throws {
        try await FirebaseHarness.run { harness in
            let first = try harness.firebase.idToken(uid: Self.uid)
            let account = try await harness.account(bearer: first)
            let second = try harness.firebase.idToken(
                uid: Self.uid, changes: ["auth_time": Int(Date().timeIntervalSince1970) - 5])
            #expect(first != second)
            #expect(try await harness.account(bearer: second) == account)
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await harness.registerPasskey(bearer: second, passkey: &passkey)
            let listed = try await harness.get("/api/mobile/biometric/passkeys", bearer: first)
            #expect(listed.status == .ok)
            #expect((try listed.json()["passkeys"] as? [Any])?.count == 1)
            #expect(try await harness.accountCount() == 1)
            #expect(try await harness.linkCount(uid: Self.uid) == 1)
            let other = try harness.firebase.idToken(uid: "another-firebase-user")
            #expect(try await harness.account(bearer: other) != account)
        }
    }

    @Test("Concurrent first uses of one uid make one account", .racesNeedPostgreSQL, arguments: TestDatabase.available)
    func concurrentFirstUses(database: TestDatabase) async throws {
        try await FirebaseHarness.run(on: database) { harness in
            let tokens = try (0..<8).map { index in
                try harness.firebase.idToken(
                    uid: Self.uid, email: "ana@example.com",
                    changes: ["auth_time": Int(Date().timeIntervalSince1970) - index])
            }
            let accounts = try await withThrowingTaskGroup(of: AccountID.self) { group in
                for token in tokens {
                    group.addTask { try await harness.account(bearer: token) }
                }
                return try await group.reduce(into: Set<AccountID>()) { $0.insert($1) }
            }
            #expect(accounts.count == 1)
            #expect(try await harness.accountCount() == 1)
            #expect(try await harness.linkCount(uid: Self.uid) == 1)
        }
    }

    @Test(
        "Concurrent first uses through the routes make one account", .racesNeedPostgreSQL,
        arguments: TestDatabase.available)
    func concurrentFirstUsesOverHTTP(database: TestDatabase) async throws {
        try await FirebaseHarness.run(on: database) { harness in
            let token = try harness.firebase.idToken(uid: Self.uid)
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<6 {
                    group.addTask { try await harness.get("/api/mobile/biometric/passkeys", bearer: token).status }
                }
                return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .ok }, "\(statuses)")
            #expect(try await harness.accountCount() == 1)
            #expect(try await harness.linkCount(uid: Self.uid) == 1)
        }
    }

    @Test("A passkey-first account gets its own id as its uid, and that uid's ID tokens sign in to it")
    func passkeyFirstAccountLinksItsOwnID() async throws {
        try await FirebaseHarness.run { harness in
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            let options = try JSONDecoder().decode(
                FirebaseHarness.Options<CreationOptions>.self,
                from: Data(
                    buffer: try await harness.post("/api/mobile/biometric/register/options", ["displayName": "Noa"])
                        .body))
            let signUp = try await harness.post(
                "/api/mobile/biometric/register/verify",
                FirebaseHarness.RegisterBody(credential: passkey.register(options: options.options), deviceInfo: nil))
            #expect(signUp.status == .ok, "\(signUp.body.string)")
            let accountText = try #require(try signUp.json()["accountId"] as? String)
            let first = harness.firebase.verifiedCustomToken(
                try #require(try await harness.signIn(passkey: &passkey).json()["token"] as? String))
            #expect(first?.claims["uid"] as? String == accountText)
            let again = harness.firebase.verifiedCustomToken(
                try #require(try await harness.signIn(passkey: &passkey).json()["token"] as? String))
            #expect(again?.claims["uid"] as? String == accountText)
            let idToken = try harness.firebase.idToken(uid: accountText)
            #expect(try await harness.account(bearer: idToken).description == accountText)
            #expect(try await harness.accountCount() == 1)
        }
    }

    @Test("An account has one uid: a second Firebase link to it is refused by the database")
    func oneUIDPerAccount() async throws {
        try await FirebaseHarness.run { harness in
            let account = try await harness.account(bearer: try harness.firebase.idToken(uid: Self.uid))
            let repository = SQLSocialAccountRepository(database: harness.app.hale.database)
            let second = SocialIdentity(
                id: UUID(), accountId: account, provider: "firebase", subject: "second-uid", email: nil,
                emailVerified: false, privateRelayEmail: false, clientId: nil, createdAt: Date(), lastSignInAt: Date())
            #expect(try await repository.link(second, newAccount: nil) == false)
            #expect(try await harness.app.hale.firebase?.uid(of: account) == Self.uid)
        }
    }

    @Test("A verified email another account holds stays unverified on the new account, linking nothing")
    func takenEmailDoesNotLink() async throws {
        try await FirebaseHarness.run { harness in
            let (existing, _) = try await makeAccount(harness.app, email: "ana@example.com")
            let account = try await harness.account(
                bearer: try harness.firebase.idToken(uid: Self.uid, email: "ana@example.com"))
            #expect(account != existing.id)
            let made = try #require(try await harness.app.hale.accounts.find(account))
            #expect(made.email == nil)
            #expect(made.unverifiedEmail == "ana@example.com")
        }
    }

    @Test("An email Firebase has not verified is kept unverified")
    func unverifiedEmail() async throws {
        try await FirebaseHarness.run { harness in
            let account = try await harness.account(
                bearer: try harness.firebase.idToken(uid: Self.uid, email: "ana@example.com", emailVerified: false))
            let made = try #require(try await harness.app.hale.accounts.find(account))
            #expect(made.email == nil && made.unverifiedEmail == "ana@example.com")
        }
    }

    @Test("Seed 000's health routes take the Firebase ID token too, as its app sends it")
    func healthRoutes() async throws {
        try await FirebaseHarness.run { harness in
            let token = try harness.firebase.idToken(uid: Self.uid)
            let consent = try await harness.app.testing().sendRequest(
                .POST, "/api/mobile/health/consent", headers: .json(bearer: token),
                body: .json(#"{"platform": "apple", "permissions": ["steps", "distance"]}"#))
            #expect(consent.status == .ok, "\(consent.body.string)")
            let sync = try await harness.app.testing().sendRequest(
                .POST, "/api/mobile/health/sync", headers: .json(bearer: token),
                body: .json(
                    #"{"platform": "apple", "data": {"steps": 5234, "distance": 3210, "date": "\#(Self.today)"}}"#))
            #expect(sync.status == .ok, "\(sync.body.string)")
        }
    }

    @Test(
        "Routes of the other documents never take a Firebase ID token",
        arguments: ["/api/v1/account", "/api/v1/devices", "/api/v1/health/consent", "/api/v1/account/tokens"])
    func otherSurfacesRefuse(path: String) async throws {
        try await FirebaseHarness.run { harness in
            let response = try await harness.get(path, bearer: try harness.firebase.idToken(uid: Self.uid))
            #expect(response.status == .unauthorized)
            #expect(try await harness.accountCount() == 0, "a refused token makes no account")
        }
    }

    @Test("Hale's own tokens still work on seed 000's routes with Firebase on")
    func haleTokensStillWork() async throws {
        try await FirebaseHarness.run { harness in
            let (_, personalToken) = try await makeAccount(harness.app)
            #expect(try await harness.get("/api/mobile/biometric/passkeys", bearer: personalToken).status == .ok)
            let (account, _) = try await makeAccount(harness.app, email: "other@example.com")
            let pair = try await harness.app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            #expect(try await harness.get("/api/mobile/biometric/passkeys", bearer: pair.accessToken).status == .ok)
        }
    }

    @Test("Google's certificates are fetched once for many requests, as their max-age allows")
    func certificatesCached() async throws {
        try await FirebaseHarness.run { harness in
            for index in 0..<5 {
                let token = try harness.firebase.idToken(uid: "user-\(index)")
                #expect(try await harness.get("/api/mobile/biometric/passkeys", bearer: token).status == .ok)
            }
            #expect(harness.firebase.certificateFetches == 1)
        }
    }

    @Test("With a project and no service account, ID tokens are accepted and sign-in answers Hale's tokens only")
    func noServiceAccount() async throws {
        try await FirebaseHarness.run(settings: ["firebase.serviceAccount": ""]) { harness in
            let idToken = try harness.firebase.idToken(uid: Self.uid)
            var passkey = SoftwarePasskey(rpID: "localhost", origin: "http://localhost:8080")
            try await harness.registerPasskey(bearer: idToken, passkey: &passkey)
            let body = try await harness.signIn(passkey: &passkey).json()
            #expect(Set(body.keys) == ["token", "refreshToken", "expiresAt", "refreshTokenExpiresAt", "accountId"])
            _ = try await harness.app.hale.accessTokens.verify(try #require(body["token"] as? String))
        }
    }

    @Test("Without Firebase, a Firebase ID token is refused as today, and sign-in answers as today")
    func off() async throws {
        try await FirebaseHarness.run(settings: ["firebase.projectId": "", "firebase.serviceAccount": ""]) { harness in
            #expect(harness.app.hale.firebase == nil)
            let response = try await harness.get(
                "/api/mobile/biometric/passkeys", bearer: try harness.firebase.idToken(uid: Self.uid))
            #expect(response.status == .unauthorized)
            #expect(try response.coreError().error.code == "TOKEN_INVALID")
            #expect(harness.firebase.certificateFetches == 0)
        }
    }
}

/// The audience every custom token names.
enum FirebaseCustomTokenAudience {
    static let value = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
}
