import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Recovery approved from another device: a new phone names a verified address and shows a two-digit pairing code;
/// a signed-in device of the account approves with a fresh sign-in and that code; the new phone then claims a
/// recovery session at once. An approval also lets a recovery by email skip its wait.
@Suite("HTTP: recovery approved from another device")
struct DeviceApprovedRecoveryTests {
    static let settings = EmailAddressTests.settings

    static func ask(_ api: EmailRecoveryTests.API, _ email: String) async throws -> [String: Any] {
        let asked = try await api.post("/api/v1/auth/recovery/device", ["email": email])
        #expect(asked.status == .accepted, "\(asked.body.string)")
        return try asked.json()
    }

    static func approve(_ app: Application, _ id: String, code: String, bearer: String) async throws
        -> TestingHTTPResponse
    {
        try await app.testing().sendRequest(
            .POST, "/api/v1/account/recoveries/\(id)/approve", headers: .json(bearer: bearer),
            body: ByteBuffer(data: try JSONEncoder().encode(["pairingCode": code])))
    }

    @Test(
        "a new phone asks, the old one approves with the pairing code, the new phone enrols at once",
        arguments: TestDatabase.available)
    func approvedByAnotherDevice(database: TestDatabase) async throws {
        try await withHale(on: database, settings: Self.settings) { app in
            let api = EmailRecoveryTests.API(app: app)
            let (account, phone) = try await EmailRecoveryTests.account(app)
            let asked = try await Self.ask(api, "person@example.com")
            #expect(Set(asked.keys) == ["recoveryId", "claimToken", "pairingCode", "expiresAt"])
            let id = try #require(asked["recoveryId"] as? String)
            let code = try #require(asked["pairingCode"] as? String)
            #expect(code.wholeMatch(of: /[0-9]{2}/) != nil)

            let early = try await api.claim(asked)
            #expect(early.status == .conflict && early.headers.first(name: .retryAfter) == "5")
            let listed = try await app.testing().sendRequest(
                .GET, "/api/v1/account/recoveries", headers: .bearer(phone))
            let recoveries = try #require(try listed.json()["recoveries"] as? [[String: Any]])
            #expect(recoveries.map { $0["method"] as? String } == ["device"])
            #expect(recoveries.allSatisfy { $0["pairingCode"] == nil }, "the code is the new phone's to show")

            let wrong = code == "00" ? "01" : "00"
            #expect(try await Self.approve(app, id, code: wrong, bearer: phone).status == .notFound)
            #expect(try await Self.approve(app, id, code: code, bearer: phone).status == .noContent)
            let claimed = try await api.claim(asked)
            #expect(claimed.status == .ok, "\(claimed.body.string)")
            let recovery = try #require(try claimed.json()["accessToken"] as? String)
            try await DeviceAPI(app: app).register(try DeviceClient(.android), bearer: recovery)
            let types = try await app.hale.audit.events(of: account).map(\.eventType)
            #expect(types.contains("account_recovery_approved") && types.contains("account_recovered"))
        }
    }

    @Test("approving needs a fresh sign-in: a stolen or tool's token cannot let a stranger in")
    func approvalNeedsAFreshSignIn() async throws {
        try await withHale(settings: Self.settings) { app in
            let api = EmailRecoveryTests.API(app: app)
            let (account, _) = try await EmailRecoveryTests.account(app)
            let tool = try await app.hale.personalAccessTokens.create(for: account, name: "tool").token
            let asked = try await Self.ask(api, "person@example.com")
            let refused = try await Self.approve(
                app, try #require(asked["recoveryId"] as? String),
                code: try #require(asked["pairingCode"] as? String), bearer: tool)
            #expect(try refused.coreError().error.code == "FRESH_SIGN_IN_REQUIRED")
            #expect(try await api.claim(asked).status == .conflict)
        }
    }

    @Test("an address no account verified gets the same answers, and nothing to approve")
    func unknownAddress() async throws {
        try await withHale(settings: Self.settings) { app in
            let api = EmailRecoveryTests.API(app: app)
            _ = try await EmailRecoveryTests.account(app)
            let known = try await Self.ask(api, "person@example.com")
            let unknown = try await Self.ask(api, "nobody@example.com")
            #expect(Set(known.keys) == Set(unknown.keys))
            let claimKnown = try await api.claim(known)
            let claimUnknown = try await api.claim(unknown)
            #expect(claimKnown.status == claimUnknown.status)
            #expect(try claimUnknown.coreError().error.code == "RECOVERY_PENDING")
        }
    }

    @Test("an approval lets a recovery by email skip its wait")
    func approvalSkipsTheEmailWait() async throws {
        try await withHale(settings: Self.settings) { app in
            let api = EmailRecoveryTests.API(app: app)
            let (_, phone) = try await EmailRecoveryTests.account(app)
            let waiting = try await api.recover("person@example.com").json()
            #expect(waiting["readyAt"] is String)
            #expect(try await api.claim(waiting).status == .conflict)
            let approved = try await Self.approve(
                app, try #require(waiting["recoveryId"] as? String),
                code: try #require(waiting["pairingCode"] as? String), bearer: phone)
            #expect(approved.status == .noContent)
            #expect(try await api.claim(waiting).status == .ok)
        }
    }

    @Test("requests naming one address are capped per hour, known or not; lapsed ones are purged")
    func requestsAreCappedAndPurged() async throws {
        let time = TestClock()
        let settings = Self.settings.merging(["email.codesPerAddress": "2"]) { $1 }
        try await withHale(clock: time.clock, settings: settings) { app in
            let api = EmailRecoveryTests.API(app: app)
            _ = try await EmailRecoveryTests.account(app)
            for email in ["person@example.com", "nobody@example.com"] {
                for _ in 0..<2 { _ = try await Self.ask(api, email) }
                let third = try await api.post("/api/v1/auth/recovery/device", ["email": email])
                #expect(third.status == .tooManyRequests, "\(email)")
            }
            time.advance(.seconds(3601))
            _ = try await Self.ask(api, "nobody@example.com")
            time.advance(.seconds(8 * 86_400))
            #expect(try await app.hale.accountRecoveries.purgeLapsed() == 5)
            #expect(try await app.hale.emailAddresses.purgeOldCodes() == 1, "the code that verified the address")
        }
    }
}
