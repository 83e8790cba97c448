import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Seed 001's attested day totals follow consent like synced data: an upload grants what the person never decided
/// on, revoking a kind forgets it from the totals of that platform, and once revoked an upload is refused until
/// consent is granted again.
@Suite("Seed 001: attested totals follow consent")
struct AttestedTotalsConsentTests {
    typealias Submission = HealthSubmissionTests

    static func send(
        _ app: Application, _ method: HTTPMethod, _ path: String, _ token: String, _ body: String? = nil
    ) async throws -> TestingHTTPResponse {
        try await app.testing().sendRequest(
            method, path, headers: .json(bearer: token), body: body.map { ByteBuffer(string: $0) })
    }

    static func grants(_ app: Application, _ token: String) async throws -> [String] {
        let response = try await send(app, .GET, "/api/v1/health/consent", token)
        return (try response.json()["consent"] as? [[String: Any]] ?? []).map {
            "\($0["platform"] ?? "?"):\($0["permission"] ?? "?")"
        }.sorted()
    }

    static func day(_ app: Application, _ token: String) async throws -> [String: Any] {
        let day = HealthSubmissionTests.yesterday
        let response = try await send(app, .GET, "/health/statistics?startDate=\(day)&endDate=\(day)", token)
        #expect(response.status == .ok, "\(response.body.string)")
        return try response.json()["summary"] as? [String: Any] ?? [:]
    }

    @Test(
        "an upload grants the four kinds; revoking steps forgets them, revoking all deletes the day, then uploads are 403",
        arguments: TestDatabase.available)
    func followsConsent(database: TestDatabase) async throws {
        try await Submission.withFixture(on: database) { fixture in
            let (app, token) = (fixture.app, fixture.token)
            try await fixture.registerKey()
            let nonce = try await fixture.nonce()
            let stored = try await fixture.submit(nonce: nonce, token: try fixture.assertion(nonce, counter: 1))
            #expect(stored.status == .created, "\(stored.body.string)")
            #expect(
                try await Self.grants(app, token) == [
                    "apple:active_minutes", "apple:calories", "apple:distance", "apple:steps",
                ])
            #expect(try await Self.day(app, token)["steps"] as? Int == 8_500)

            let revokedSteps = try await Self.send(app, .DELETE, "/api/v1/health/consent/apple/steps", token)
            #expect(revokedSteps.status == .ok, "\(revokedSteps.body.string)")
            let afterSteps = try await Self.day(app, token)
            #expect(afterSteps["steps"] as? Int == 0)
            #expect(afterSteps["calories"] as? Double == 350.5, "calories are still consented to")

            let refused = try await fixture.submit(
                nonce: try await fixture.nonce(), token: try fixture.assertion(nonce, counter: 2))
            #expect(
                try Submission.message(refused, .forbidden)
                    == "Consent to steps data from apple was revoked; grant it again first.")

            _ = try await Self.send(app, .DELETE, "/api/v1/health/consent/apple", token)
            #expect(try await Self.day(app, token)["calories"] as? Double == 0, "the day's totals are gone")
            #expect(
                try await SQLHealthRepository(database: app.hale.database).allDailyTotals(of: Self.account(app, token))
                    .isEmpty)

            let granted = try await Self.send(
                app, .POST, "/api/v1/health/consent", token,
                #"{"platform":"apple","permissions":["steps","distance","calories","active_minutes"]}"#)
            #expect(granted.status == .ok)
            let again = try await fixture.nonce()
            let accepted = try await fixture.submit(nonce: again, token: try fixture.assertion(again, counter: 3))
            #expect(accepted.status == .created, "\(accepted.body.string)")
        }
    }

    @Test(
        "a revocation forgets totals uploaded before uploads recorded their grants", arguments: TestDatabase.available)
    func totalsWithoutGrants(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, token) = try await makeAccount(app)
            try await app.hale.health.importDailyTotals([
                HealthHTTPTests.total(account.id, HealthSubmissionTests.yesterday, steps: 4_000)
            ])
            #expect(try await Self.day(app, token)["steps"] as? Int == 4_000)
            let revoked = try await Self.send(app, .DELETE, "/api/v1/health/consent", token)
            #expect(revoked.status == .ok, "\(revoked.body.string)")
            #expect(try await Self.day(app, token)["steps"] as? Int == 0)
            #expect(try await SQLHealthRepository(database: app.hale.database).allDailyTotals(of: account.id).isEmpty)
        }
    }

    static func account(_ app: Application, _ token: String) async throws -> AccountID {
        let response = try await send(app, .GET, "/api/v1/account", token)
        let id = try #require(try response.json()["id"] as? String)
        return try #require(AccountID(id))
    }
}
