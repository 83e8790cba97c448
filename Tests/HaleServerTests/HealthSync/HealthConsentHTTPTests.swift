import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Consent over HTTP: seed 000's `POST /api/mobile/health/consent` as its clients send it, and the same routes under
/// `/api/v1/health`.
@Suite("HTTP: health consent (seeds 000 and 004)")
struct HealthConsentHTTPTests {
    static let granted = Date(timeIntervalSince1970: 1_761_652_800)  // 2025-10-28T12:00:00Z

    static func grants(_ response: TestingHTTPResponse, _ key: String = "consent") throws -> [String] {
        let body = try response.json()
        #expect(body["success"] as? Bool == true)
        return (body[key] as? [[String: Any]] ?? []).map { "\($0["platform"]!):\($0["permission"]!)" }
    }

    @Test("seed 000's iOS and Android consent requests grant steps and distance", arguments: TestDatabase.available)
    func seedClients(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { Self.granted }) { app in
            let (_, token) = try await makeAccount(app)
            let ios = try await app.testing().sendRequest(
                .POST, "/api/mobile/health/consent", headers: .json(bearer: token),
                body: .json(#"{"platform":"apple","permissions":["steps","distance"]}"#))
            #expect(ios.status == .ok, "\(ios.body.string)")
            #expect(try Self.grants(ios) == ["apple:distance", "apple:steps"])
            let android = try await app.testing().sendRequest(
                .POST, "/api/mobile/health/consent", headers: .json(bearer: token),
                body: .json(#"{"permissions":["steps","distance"],"platform":"google"}"#))
            #expect(
                try Self.grants(android) == ["apple:distance", "apple:steps", "google:distance", "google:steps"])
            let listed = try await app.testing().sendRequest(.GET, "/api/v1/health/consent", headers: .bearer(token))
            #expect(try Self.grants(listed).count == 4)
            let first = (try listed.json()["consent"] as? [[String: Any]])?.first
            #expect(first?["grantedAt"] as? String == "2025-10-28T12:00:00.000Z")
            #expect(first?.keys.contains("revokedAt") == true)
        }
    }

    @Test(
        "a bad consent request is a 400 that says what is wrong",
        arguments: [
            (#"{"permissions":["steps"]}"#, "platform must be one of: apple, google, health_connect"),
            (
                #"{"platform":"fitbit","permissions":["steps"]}"#,
                "platform must be one of: apple, google, health_connect"
            ),
            (#"{"platform":"apple"}"#, "permissions must be a non-empty list of"),
            (#"{"platform":"apple","permissions":[]}"#, "permissions must be a non-empty list of"),
            (#"{"platform":"apple","permissions":["heart_rate"]}"#, "Unknown permission"),
            (#"{"platform":"apple","permissions":"steps"}"#, "permissions"),
            (#"{"platform":"apple","permissions":["steps"],"scope":"all"}"#, "scope"),
        ])
    func badRequests(body: String, message: String) async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            let response = try await app.testing().sendRequest(
                .POST, "/api/mobile/health/consent", headers: .json(bearer: token), body: .json(body))
            #expect(response.status == .badRequest, "\(response.body.string)")
            let error = try response.coreError()
            #expect(error.error.code == "INVALID_REQUEST")
            #expect(error.error.message.contains(message), "\(error.error.message)")
            let listed = try await app.testing().sendRequest(.GET, "/api/v1/health/consent", headers: .bearer(token))
            #expect(try Self.grants(listed).isEmpty)
        }
    }

    @Test("consent needs a signed-in account")
    func unauthenticated() async throws {
        try await withHale { app in
            let response = try await app.testing().sendRequest(
                .POST, "/api/mobile/health/consent", headers: .json(),
                body: .json(#"{"platform":"apple","permissions":["steps"]}"#))
            #expect(response.status == .unauthorized)
        }
    }

    @Test(
        "revoke one permission, one platform, or everything; a renewed grant starts anew",
        arguments: TestDatabase.available)
    func revoke(database: TestDatabase) async throws {
        let clock = TestClock(Self.granted)
        try await withHale(on: database, clock: clock.clock) { app in
            let (account, token) = try await makeAccount(app)
            let (_, other) = try await makeAccount(app, email: "other@example.com")
            for (bearer, platform) in [(token, "apple"), (token, "google"), (other, "apple")] {
                let response = try await app.testing().sendRequest(
                    .POST, "/api/v1/health/consent", headers: .json(bearer: bearer),
                    body: .json(#"{"platform":"\#(platform)","permissions":["steps","distance","calories"]}"#))
                #expect(response.status == .ok)
            }
            clock.advance(.seconds(60))
            let one = try await app.testing().sendRequest(
                .DELETE, "/api/v1/health/consent/apple/steps", headers: .bearer(token))
            #expect(try Self.grants(one, "revoked") == ["apple:steps"])
            let again = try await app.testing().sendRequest(
                .DELETE, "/api/v1/health/consent/apple/steps", headers: .bearer(token))
            #expect(try Self.grants(again, "revoked").isEmpty)
            let platform = try await app.testing().sendRequest(
                .DELETE, "/api/mobile/health/consent/google", headers: .bearer(token))
            #expect(try Self.grants(platform, "revoked") == ["google:calories", "google:distance", "google:steps"])
            #expect(
                try await app.hale.healthConsents.current(of: account.id).map(\.permission) == [.calories, .distance])
            let all = try await app.testing().sendRequest(.DELETE, "/api/v1/health/consent", headers: .bearer(token))
            #expect(try Self.grants(all, "revoked") == ["apple:calories", "apple:distance"])
            #expect(try await app.hale.healthConsents.current(of: account.id).isEmpty)
            let untouched = try await app.testing().sendRequest(.GET, "/api/v1/health/consent", headers: .bearer(other))
            #expect(try Self.grants(untouched).count == 3)

            let refused = await #expect(throws: HaleError.self) {
                try await app.hale.healthConsents.require(.steps, from: .apple, of: account.id)
            }
            #expect(refused?.code == .consentRequired)
            #expect(refused?.message == "No health permissions for steps data from apple: grant consent first.")
            clock.advance(.seconds(60))
            _ = try await app.hale.healthConsents.grant(platform: .apple, permissions: [.steps], to: account.id)
            try await app.hale.healthConsents.require(.steps, from: .apple, of: account.id)
            let renewed = try await app.hale.healthConsents.current(of: account.id)
            #expect(renewed.map(\.grantedAt) == [Self.granted.addingTimeInterval(120)])
            let audited = try await app.hale.audit.events(of: account.id).map(\.eventType)
            #expect(audited.filter { $0 == "health_consent_granted" }.count == 3)
            #expect(audited.filter { $0 == "health_consent_revoked" }.count == 3)
        }
    }

    @Test(
        "an attested upload grants and audits only kinds never decided on: a second upload records nothing",
        arguments: TestDatabase.available)
    func attestedUploadGrantsOnce(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, _) = try await makeAccount(app)
            let consents = app.hale.healthConsents
            try await consents.grantByAttestedUpload([.steps], from: .apple, of: account.id)
            try await consents.grantByAttestedUpload([.steps], from: .apple, of: account.id)
            try await consents.grantByAttestedUpload([.steps, .distance], from: .apple, of: account.id)
            let granted = try await app.hale.audit.events(of: account.id)
                .filter { $0.eventType == AuditEventType.healthConsentGranted.rawValue }
            #expect(granted.count == 2)
            #expect(try await consents.current(of: account.id).map(\.permission) == [.distance, .steps])
        }
    }

    @Test("granting again keeps the original time; a bad path is a 400", arguments: TestDatabase.available)
    func regrantAndBadPath(database: TestDatabase) async throws {
        let clock = TestClock(Self.granted)
        try await withHale(on: database, clock: clock.clock) { app in
            let (account, token) = try await makeAccount(app)
            _ = try await app.hale.healthConsents.grant(platform: .apple, permissions: [.steps], to: account.id)
            clock.advance(.seconds(3_600))
            _ = try await app.hale.healthConsents.grant(
                platform: .apple, permissions: [.steps, .steps], to: account.id)
            #expect(try await app.hale.healthConsents.current(of: account.id).map(\.grantedAt) == [Self.granted])
            for path in ["/api/v1/health/consent/fitbit", "/api/v1/health/consent/apple/heart_rate"] {
                let response = try await app.testing().sendRequest(.DELETE, path, headers: .bearer(token))
                #expect(response.status == .badRequest, "\(path)")
            }
        }
    }
}
