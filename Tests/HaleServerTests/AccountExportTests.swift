import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// `GET /api/v1/account/export`: everything Hale holds about the account, streamed as one JSON document, and never
/// a token, a hash, a secret, a private key or a push token.
@Suite("HTTP: the whole account's export")
struct AccountExportTests {
    static let now = Date(timeIntervalSince1970: 1_760_000_000)

    static func export(_ app: Application, _ token: String) async throws -> (text: String, json: [String: Any]) {
        let response = try await app.testing().sendRequest(.GET, "/api/v1/account/export", headers: .bearer(token))
        #expect(response.status == .ok)
        #expect(response.headers.contentType == .json)
        #expect(response.headers.first(name: .contentDisposition) == #"attachment; filename="account-export.json""#)
        #expect(response.headers.first(name: .cacheControl) == "no-store")
        return (String(buffer: response.body), try response.json())
    }

    @Test("the export holds a row of every kind the account owns, and no secret", arguments: TestDatabase.available)
    func everything(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { Self.now }) { app in
            let (account, token) = try await makeAccount(app)
            let (other, _) = try await makeAccount(app, email: "other@example.com")
            let seed = AccountSeed(account: account.id)
            let otherSeed = AccountSeed(account: other.id)
            try await seed.write(on: app.hale.database.sql, at: Self.now)
            try await otherSeed.write(on: app.hale.database.sql, at: Self.now)
            try await app.hale.audit.record(.passkeyRegistered, .init(account: account.id), details: ["n": "1"])
            try await app.hale.audit.record(.passkeyRegistered, .init(account: other.id))

            let (text, export) = try await Self.export(app, token)
            #expect(!text.contains("SECRET-"), "no token, hash, sealed token, push token, receipt or signature")
            #expect(!text.contains(otherSeed.tag) && !text.contains(other.id.description))
            #expect(export["success"] as? Bool == true)
            #expect(export["accountId"] as? String == account.id.description)
            #expect(export["exportedAt"] as? String == "2025-10-09T08:53:20.000Z")
            #expect((export["account"] as? [String: Any])?["email"] as? String == "person@example.com")
            #expect(export["passkeyUserHandle"] as? String == "handle-\(seed.tag)")
            let passkey = try #require((export["passkeys"] as? [[String: Any]])?.first)
            #expect(passkey["credentialId"] as? String == "credential-\(seed.tag)")
            #expect(passkey["publicKey"] as? String == "cose-\(seed.tag)")
            #expect(passkey["transports"] as? [String] == ["internal", "hybrid"])
            #expect(passkey["deviceId"] as? String == seed.device.uuidString.lowercased())
            let device = try #require((export["devices"] as? [[String: Any]])?.first)
            #expect(device["name"] as? String == "Seeded phone" && device["active"] as? Bool == true)
            #expect(
                (device["pushTokens"] as? [[String: Any]])?.compactMap { $0["provider"] as? String } == ["fcm", "apns"])
            #expect((device["keys"] as? [[String: Any]])?.first?["thumbprint"] as? String == "thumbprint-\(seed.tag)")
            #expect((export["appAttestKeys"] as? [[String: Any]])?.first?["keyId"] as? String == "key-\(seed.tag)")
            let session = try #require((export["sessions"] as? [[String: Any]])?.first)
            #expect(session["id"] as? String == seed.session.uuidString.lowercased())
            #expect(session["signInMethod"] as? String == "passkey")
            #expect(
                (export["personalAccessTokens"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == [
                    "test", "seeded",
                ])
            let identity = try #require((export["socialIdentities"] as? [[String: Any]])?.first)
            #expect(
                identity["provider"] as? String == "google" && identity["subject"] as? String == "subject-\(seed.tag)")
            #expect((export["cleanerProfile"] as? [String: Any])?["phone"] as? String == "+15550100")
            #expect((export["services"] as? [[String: Any]])?.first?["serviceId"] as? Int == 7)
            #expect((export["pushRegistrations"] as? [[String: Any]])?.first?["platform"] as? String == "android")
            #expect(
                (export["emailAddresses"] as? [[String: Any]])?.first?["address"] as? String
                    == "verified-\(seed.tag)@example.com")
            let challenges = try #require(export["fitnessChallenges"] as? [String: Any])
            #expect(
                (challenges["created"] as? [[String: Any]])?.first?["name"] as? String == "Seeded challenge \(seed.tag)"
            )
            let membership = try #require((challenges["memberships"] as? [[String: Any]])?.first)
            #expect(membership["progress"] as? Double == 42 && membership["startDate"] as? String == "2024-10-04")
            let confirmation = try #require((export["confirmations"] as? [[String: Any]])?.first)
            #expect(confirmation["decision"] as? String == "approve" && confirmation["signature"] == nil)
            let events = try #require(export["auditEvents"] as? [[String: Any]])
            #expect(events.map { $0["type"] as? String } == ["passkey_registered"])
            #expect(events.first?["details"] as? [String: String] == ["n": "1"])
            let health = try #require(export["health"] as? [String: Any])
            #expect((health["samples"] as? [[String: Any]])?.first?["id"] as? String == "sample-\(seed.tag)")
            #expect((health["consent"] as? [Any])?.count == 1 && (health["connections"] as? [Any])?.count == 1)
            #expect(
                (health["dailyTotals"] as? [Any])?.count == 1 && (health["attestedDailyTotals"] as? [Any])?.count == 1)
            #expect((health["syncLogs"] as? [Any])?.count == 1 && health["success"] == nil)
        }
    }

    @Test("audit events and health samples stream page after page", arguments: TestDatabase.available)
    func pages(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HealthSyncHTTPTests.now }) { app in
            let (account, token) = try await makeAccount(app)
            let (other, otherToken) = try await makeAccount(app, email: "other@example.com")
            try await HealthDataRightsTests.seed(app, account.id, token, samples: 1_001)
            try await HealthDataRightsTests.seed(app, other.id, otherToken, samples: 2)
            for index in 0..<1_001 {
                try await app.hale.audit.record(
                    .newDeviceSignIn, .init(account: account.id), details: ["i": "\(index)"])
            }
            let (_, export) = try await Self.export(app, token)
            let events = try #require(export["auditEvents"] as? [[String: Any]])
            // The seed's consent events, then the sign-ins, oldest first.
            #expect(events.filter { $0["type"] as? String == "new_device_sign_in" }.count == 1_001)
            #expect(events.last?["details"] as? [String: String] == ["i": "1000"])
            #expect(
                events.compactMap { $0["sequence"] as? Int } == events.compactMap { $0["sequence"] as? Int }.sorted())
            let samples = try #require((export["health"] as? [String: Any])?["samples"] as? [[String: Any]])
            #expect(samples.count == 1_001)
            #expect(Set(samples.compactMap { $0["id"] as? String }).count == 1_001)
        }
    }

    @Test("exports are counted per account: over the budget is a 429, another account still exports")
    func rateLimited() async throws {
        try await withHale(settings: ["rateLimits.accountExportsPerAccount": "1/1h"]) { app in
            let (_, token) = try await makeAccount(app)
            let (_, otherToken) = try await makeAccount(app, email: "other@example.com")
            _ = try await Self.export(app, token)
            let again = try await app.testing().sendRequest(.GET, "/api/v1/account/export", headers: .bearer(token))
            #expect(again.status == .tooManyRequests)
            #expect(try again.coreError().error.code == "RATE_LIMITED")
            #expect(again.headers.first(name: .retryAfter) != nil)
            _ = try await Self.export(app, otherToken)
        }
    }

    @Test("without a bearer token there is no export")
    func needsBearer() async throws {
        try await withHale { app in
            let response = try await app.testing().sendRequest(.GET, "/api/v1/account/export")
            #expect(response.status == .unauthorized)
        }
    }
}
