import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// The export of all of an account's health data, streamed, and its deletion.
@Suite("HTTP: health data export and deletion")
struct HealthDataRightsTests {
    static func export(_ app: Application, _ token: String) async throws -> [String: Any] {
        let response = try await app.testing().sendRequest(.GET, "/api/v1/health/export", headers: .bearer(token))
        #expect(response.status == .ok)
        #expect(response.headers.contentType == .json)
        return try response.json()
    }

    static func seed(_ app: Application, _ account: AccountID, _ token: String, samples: Int) async throws {
        try await HealthSyncHTTPTests.grant(app, account, "apple", ["steps"])
        let batch = (0..<samples).map { index in
            HealthSampleSyncTests.sample(
                "\(account)-\(index)", 1, start: "2025-10-28T09:00:0\(index % 10)Z", end: "2025-10-28T10:00:00Z")
        }
        try await HealthRetentionTests.sync(app, token, batch)
        let day = LocalDate("2025-10-27")!
        try await app.hale.health.importDailyTotals([
            HealthDailyTotal(
                id: UUID(), accountId: account, day: day, source: "ios_health", platform: "ios",
                totals: HealthTotals(steps: 10, duration: 60, caloriesHundredths: 150, distanceHundredths: 1_000),
                createdAt: HealthSyncHTTPTests.now, updatedAt: HealthSyncHTTPTests.now)
        ])
    }

    @Test(
        "the export streams every sample, page after page, and only the account's own",
        arguments: TestDatabase.available)
    func export(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HealthSyncHTTPTests.now }) { app in
            let (account, token) = try await makeAccount(app)
            let (other, otherToken) = try await makeAccount(app, email: "other@example.com")
            try await Self.seed(app, account.id, token, samples: 2_345)
            try await Self.seed(app, other.id, otherToken, samples: 3)
            let exported = try await Self.export(app, token)
            #expect(exported["accountId"] as? String == account.id.description)
            let samples = exported["samples"] as? [[String: Any]] ?? []
            #expect(samples.count == 2_345)
            #expect(Set(samples.compactMap { $0["id"] as? String }).count == 2_345)
            #expect(samples.allSatisfy { ($0["id"] as? String)?.hasPrefix(account.id.description) == true })
            #expect(samples.first?["unit"] as? String == "count")
            #expect((exported["dailyTotals"] as? [[String: Any]])?.first?["value"] as? Double == 2_345)
            #expect((exported["attestedDailyTotals"] as? [[String: Any]])?.count == 1)
            #expect((exported["consent"] as? [Any])?.count == 1)
            #expect((exported["syncLogs"] as? [Any])?.count == 1)
        }
    }

    @Test(
        "deleting all health data empties the export, keeps consent and others' data", arguments: TestDatabase.available
    )
    func deleteAll(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HealthSyncHTTPTests.now }) { app in
            let (account, token) = try await makeAccount(app)
            let (other, otherToken) = try await makeAccount(app, email: "other@example.com")
            try await Self.seed(app, account.id, token, samples: 5)
            try await Self.seed(app, other.id, otherToken, samples: 3)
            let response = try await app.testing().sendRequest(.DELETE, "/api/v1/health/data", headers: .bearer(token))
            #expect(response.status == .ok)
            let deleted = try response.json()["deleted"] as? [String: Int]
            #expect(deleted == ["samples": 5, "attestedDailyTotals": 1, "syncLogs": 1])
            let exported = try await Self.export(app, token)
            for key in ["samples", "dailyTotals", "attestedDailyTotals", "syncLogs"] {
                #expect((exported[key] as? [Any])?.isEmpty == true, "\(key)")
            }
            #expect((exported["consent"] as? [Any])?.count == 1)
            #expect(((try await Self.export(app, otherToken))["samples"] as? [Any])?.count == 3)
            let audited = try await app.hale.audit.events(of: account.id).map(\.eventType)
            #expect(audited.contains("health_data_deleted"))
        }
    }

    @Test("both need a signed-in account")
    func unauthenticated() async throws {
        try await withHale { app in
            let export = try await app.testing().sendRequest(.GET, "/api/v1/health/export")
            #expect(export.status == .unauthorized)
            let delete = try await app.testing().sendRequest(.DELETE, "/api/v1/health/data")
            #expect(delete.status == .unauthorized)
        }
    }
}
