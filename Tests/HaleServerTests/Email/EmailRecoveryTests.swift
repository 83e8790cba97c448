import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Recovery by email: a code to a verified address starts a recovery that waits `recovery.emailDelay`, told to every
/// device and address, cancellable by any signed-in device, then claimed once for a recovery session. And sign-in by
/// email code, whose session never counts as a fresh sign-in.
@Suite("HTTP: recovery and sign-in by email")
struct EmailRecoveryTests {
    static let settings = EmailAddressTests.settings

    struct API {
        let app: Application

        func post(_ path: String, _ body: [String: String], bearer: String? = nil) async throws
            -> TestingHTTPResponse
        {
            try await app.testing().sendRequest(
                .POST, path, headers: .json(bearer: bearer), body: ByteBuffer(data: try JSONEncoder().encode(body)))
        }

        /// Asks for a recovery code for `email` and uses it; the answer.
        func recover(_ email: String) async throws -> TestingHTTPResponse {
            let asked = try await post("/api/v1/auth/recovery/email", ["email": email])
            #expect(asked.status == .accepted, "\(asked.body.string)")
            let code = try #require(try await Mailbox(app: app).code(to: email))
            return try await post("/api/v1/auth/recovery/email/verify", ["email": email, "code": code])
        }

        func claim(_ waiting: [String: Any]) async throws -> TestingHTTPResponse {
            try await post(
                "/api/v1/auth/recovery/claim",
                [
                    "recoveryId": try #require(waiting["recoveryId"] as? String),
                    "claimToken": try #require(waiting["claimToken"] as? String),
                ])
        }
    }

    /// An account with a verified address and a registered phone: the phone's fresh access token.
    static func account(_ app: Application, email: String = "person@example.com") async throws -> (AccountID, String) {
        let (account, fresh) = try await makeSignedInAccount(app, email: email)
        try await EmailAddressTests.API(app: app).add(email, bearer: fresh)
        try await DeviceAPI(app: app).register(try DeviceClient(.iOS), bearer: fresh)
        return (account.id, fresh)
    }

    @Test(
        "a lost phone: the recovery waits a day, everyone is told, then it is claimed once and enrols a new phone",
        arguments: TestDatabase.available)
    func recoverAfterTheDelay(database: TestDatabase) async throws {
        let clock = TestClock()
        try await withHale(on: database, clock: clock.clock, settings: Self.settings) { app in
            let api = API(app: app)
            let (account, phone) = try await Self.account(app)
            let started = try await api.recover("person@example.com")
            #expect(started.status == .accepted, "\(started.body.string)")
            let waiting = try started.json()
            #expect(Set(waiting.keys) == ["recoveryId", "claimToken", "pairingCode", "readyAt", "expiresAt"])

            let early = try await api.claim(waiting)
            #expect(early.status == .conflict)
            #expect(try early.coreError().error.code == "RECOVERY_PENDING")
            #expect(early.headers.first(name: .retryAfter) == "86400")
            let mailed = try await Mailbox(app: app).data(to: "person@example.com")
            #expect(mailed.contains { $0["alertKind"] == "recovery_requested" })
            let listed = try await app.testing().sendRequest(
                .GET, "/api/v1/account/recoveries", headers: .bearer(phone))
            let recoveries = try #require(try listed.json()["recoveries"] as? [[String: Any]])
            #expect(recoveries.map { $0["id"] as? String } == [waiting["recoveryId"] as? String])
            #expect(recoveries.first?["method"] as? String == "email")

            clock.advance(.seconds(86_400))
            let claimed = try await api.claim(waiting)
            #expect(claimed.status == .ok, "\(claimed.body.string)")
            #expect(try claimed.json()["accountId"] as? String == account.description)
            let recovery = try #require(try claimed.json()["accessToken"] as? String)
            #expect(try await api.claim(waiting).status == .unauthorized, "claimed once")
            let restricted = try await app.testing().sendRequest(.GET, "/api/v1/account", headers: .bearer(recovery))
            #expect(try restricted.coreError().error.code == "RECOVERY_SESSION_RESTRICTED")
            try await DeviceAPI(app: app).register(try DeviceClient(.android), bearer: recovery)
            let types = try await app.hale.audit.events(of: account).map(\.eventType)
            #expect(types.contains("account_recovery_requested") && types.contains("account_recovered"))
        }
    }

    @Test("a signed-in device cancels a recovery; its claim is then refused")
    func cancelled() async throws {
        let clock = TestClock()
        try await withHale(clock: clock.clock, settings: Self.settings) { app in
            let api = API(app: app)
            let (account, phone) = try await Self.account(app)
            let waiting = try await api.recover("person@example.com").json()
            let id = try #require(waiting["recoveryId"] as? String)
            let cancel = try await app.testing().sendRequest(
                .POST, "/api/v1/account/recoveries/\(id)/cancel", headers: .bearer(phone))
            #expect(cancel.status == .noContent)
            let again = try await app.testing().sendRequest(
                .POST, "/api/v1/account/recoveries/\(id)/cancel", headers: .bearer(phone))
            #expect(again.status == .notFound)
            clock.advance(.seconds(86_400))
            let claim = try await api.claim(waiting)
            #expect(claim.status == .forbidden)
            #expect(try claim.coreError().error.code == "RECOVERY_CANCELLED")
            let types = try await app.hale.audit.events(of: account).map(\.eventType)
            #expect(types.contains("account_recovery_cancelled"))
        }
    }

    @Test("with recovery.emailDelay 0s the code opens the recovery session at once")
    func noDelay() async throws {
        try await withHale(settings: Self.settings.merging(["recovery.emailDelay": "0s"]) { $1 }) { app in
            let (account, _) = try await Self.account(app)
            let opened = try await API(app: app).recover("person@example.com")
            #expect(opened.status == .ok, "\(opened.body.string)")
            #expect(Set(try opened.json().keys) == ["accessToken", "accessTokenExpiresAt", "accountId"])
            #expect(try opened.json()["accountId"] as? String == account.description)
        }
    }

    @Test("an address no account verified gets a notice, the same answer, and no code that works")
    func unknownAddress() async throws {
        try await withHale(settings: Self.settings) { app in
            let api = API(app: app)
            _ = try await Self.account(app)
            let known = try await api.post("/api/v1/auth/recovery/email", ["email": "person@example.com"])
            let unknown = try await api.post("/api/v1/auth/recovery/email", ["email": "nobody@example.com"])
            #expect(known.status == unknown.status)
            #expect(Set(try known.json().keys) == Set(try unknown.json().keys))
            #expect(try await Mailbox(app: app).kinds(to: "nobody@example.com") == ["no_account"])
            let guessed = try await api.post(
                "/api/v1/auth/recovery/email/verify", ["email": "nobody@example.com", "code": "123456"])
            #expect(guessed.status == .unauthorized)
            #expect(try guessed.coreError().error.code == "EMAIL_CODE_INVALID")
        }
    }

    @Test("two claims of one recovery racing: one recovery session", arguments: TestDatabase.available)
    func racingClaims(database: TestDatabase) async throws {
        try await withHale(on: database, settings: Self.settings) { app in
            let (account, _) = try await Self.account(app)
            let (recovery, token) = try await app.hale.accountRecoveries.start(
                for: account, method: "operator", ipRange: nil)
            #expect(recovery.readyAt > recovery.requestedAt)
            let zero = AccountRecoveries(
                repository: SQLAccountRecoveryRepository(database: app.hale.database),
                emailAddresses: app.hale.emailAddresses, sessions: app.hale.sessions,
                devices: SQLDeviceRepository(database: app.hale.database), audit: app.hale.audit,
                delay: .zero, clock: HaleClock { Date().addingTimeInterval(86_400) })
            let won = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 {
                    group.addTask { (try? await zero.claim(recovery.id, token: token, ipRange: nil)) != nil }
                }
                return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(won == 1)
        }
    }

    @Test("sign-in by email code: an ordinary session, never fresh enough to change credentials")
    func emailSignIn() async throws {
        try await withHale(settings: Self.settings) { app in
            let api = API(app: app)
            let (account, _) = try await Self.account(app)
            let asked = try await api.post("/api/v1/auth/email/code", ["email": "Person@example.com"])
            #expect(asked.status == .accepted)
            let code = try #require(try await Mailbox(app: app).code(to: "person@example.com"))
            let signedIn = try await api.post(
                "/api/v1/auth/email/sign-in", ["email": "person@example.com", "code": code])
            #expect(signedIn.status == .ok, "\(signedIn.body.string)")
            #expect(try signedIn.json()["accountId"] as? String == account.description)
            let tokens = try #require(try signedIn.json()["tokens"] as? [String: Any])
            let access = try #require(tokens["accessToken"] as? String)
            #expect(tokens["refreshToken"] is String)
            let me = try await app.testing().sendRequest(.GET, "/api/v1/account", headers: .bearer(access))
            #expect(me.status == .ok)
            let plant = try await DeviceAPI(app: app).registrationChallenge(try DeviceClient(.android), bearer: access)
            #expect(plant.status == .unauthorized)
            #expect(try plant.coreError().error.code == "TOKEN_EXPIRED", "seed 002's wording of FRESH_SIGN_IN_REQUIRED")
            let address = try await EmailAddressTests.API(app: app).requestCode("other@example.com", bearer: access)
            #expect(try address.coreError().error.code == "FRESH_SIGN_IN_REQUIRED")
            let again = try await api.post("/api/v1/auth/email/sign-in", ["email": "person@example.com", "code": code])
            #expect(try again.coreError().error.code == "EMAIL_CODE_INVALID")
            let types = try await app.hale.audit.events(of: account).map(\.eventType)
            #expect(types.contains("email_sign_in"))
        }
    }

    @Test("email.signIn off: the sign-in routes are not there")
    func emailSignInOff() async throws {
        try await withHale(settings: Self.settings.merging(["email.signIn": "false"]) { $1 }) { app in
            let asked = try await API(app: app).post("/api/v1/auth/email/code", ["email": "person@example.com"])
            #expect(asked.status == .notFound)
        }
    }
}
