import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// What seed 004's app sends and reads, item by item: samples without a unit, the counters where its hook reads them,
/// its failed-logs query, the message it matches, and no syncs after a disconnect. And seed 000's instants in the
/// account's own zone.
@Suite("HTTP: seed 004's details, and seed 000's zone")
struct Seed004DetailTests {
    static func sync(_ app: Application, _ token: String, _ samples: String, provider: String = "healthkit")
        async throws -> TestingHTTPResponse
    {
        try await HealthSyncHTTPTests.post(
            app, "/api/v1/health/sync", token, #"{"provider":"\#(provider)","samples":[\#(samples)]}"#)
    }

    @Test("a sample without a unit is in its type's unit; active minutes in minutes", arguments: TestDatabase.available)
    func missingUnit(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HealthSyncHTTPTests.now }) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps", "active_minutes"])
            let synced = try await Self.sync(
                app, token,
                #"{"id":"s1","type":"steps","value":1200,"startDate":"2025-10-28T09:00:00Z","#
                    + #""endDate":"2025-10-28T10:00:00Z","timeZoneOffset":"+00:00"},"#
                    + #"{"id":"a1","type":"activeMinutes","value":30,"startDate":"2025-10-28T09:00:00Z","#
                    + #""endDate":"2025-10-28T09:30:00Z","timeZoneOffset":"+00:00"}"#)
            #expect(synced.status == .ok, "\(synced.body.string)")
            #expect((try synced.json()["rejected"] as? [Any])?.isEmpty == true, "\(synced.body.string)")
            #expect(
                try await HealthSyncHTTPTests.totals(app, account.id, .steps, "2025-10-28", "2025-10-28")
                    == ["2025-10-28": 1200])
            #expect(
                try await HealthSyncHTTPTests.totals(app, account.id, .activeMinutes, "2025-10-28", "2025-10-28")
                    == ["2025-10-28": 1800], "30 minutes, kept in seconds")
            let unknown = try await Self.sync(
                app, token,
                #"{"id":"x1","type":"sleep","value":1,"startDate":"2025-10-28T09:00:00Z","#
                    + #""endDate":"2025-10-28T09:30:00Z"}"#)
            let rejected = try #require(try unknown.json()["rejected"] as? [[String: Any]])
            #expect(rejected.first?["code"] as? String == "UNKNOWN_TYPE")
        }
    }

    @Test("the counters are at the top of the answer too, where useHealthSync reads recordsInserted")
    func topLevelCounters() async throws {
        try await withHale(clock: HaleClock { HealthSyncHTTPTests.now }) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps"])
            let sample =
                #"{"id":"s1","type":"steps","value":1200,"unit":"count","startDate":"2025-10-28T09:00:00Z","#
                + #""endDate":"2025-10-28T10:00:00Z"}"#
            let first = try await Self.sync(app, token, sample).json()
            #expect(first["recordsInserted"] as? Int == 1 && first["recordsProcessed"] as? Int == 1)
            let again = try await Self.sync(app, token, sample).json()
            #expect(again["recordsInserted"] as? Int == 0 && again["recordsDeduplicated"] as? Int == 1)
            let log = try #require(again["syncLog"] as? [String: Any])
            for key in ["recordsProcessed", "recordsInserted", "recordsUpdated", "recordsDeduplicated"] {
                #expect(again[key] as? Int == log[key] as? Int, "\(key)")
            }
        }
    }

    @Test(
        "without consent the message says \"No health permissions\"; ?status=failed lists only the failed syncs",
        arguments: TestDatabase.available)
    func failedSyncs(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HealthSyncHTTPTests.now }) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps"])
            let steps =
                #"{"id":"s1","type":"steps","value":1200,"unit":"count","startDate":"2025-10-28T09:00:00Z","#
                + #""endDate":"2025-10-28T10:00:00Z"}"#
            #expect(try await Self.sync(app, token, steps).status == .ok)
            let refused = try await Self.sync(
                app, token,
                #"{"id":"c1","type":"calories","value":120,"unit":"kcal","startDate":"2025-10-28T09:00:00Z","#
                    + #""endDate":"2025-10-28T10:00:00Z"}"#)
            #expect(refused.status == .forbidden)
            #expect(try refused.coreError().error.message.contains("No health permissions"))

            let failed = try await app.testing().sendRequest(
                .GET, "/api/v1/health/sync-logs?status=failed", headers: .bearer(token))
            let logs = try #require(try failed.json()["syncLogs"] as? [[String: Any]])
            #expect(logs.map { $0["status"] as? String } == ["failed"])
            let all = try await app.testing().sendRequest(.GET, "/api/v1/health/sync-logs", headers: .bearer(token))
            #expect((try all.json()["syncLogs"] as? [Any])?.count == 2)
            let bad = try await app.testing().sendRequest(
                .GET, "/api/v1/health/sync-logs?status=broken", headers: .bearer(token))
            #expect(bad.status == .badRequest)
        }
    }

    @Test("after a disconnect no sync is taken until the app connects again", arguments: TestDatabase.available)
    func noSyncsAfterDisconnect(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HealthSyncHTTPTests.now }) { app in
            let (_, token) = try await makeAccount(app)
            let connect = #"{"provider":"healthkit","permissions":["steps"]}"#
            #expect(try await HealthConnectionHTTPTests.connect(app, token, connect).status == .created)
            let steps =
                #"{"id":"s1","type":"steps","value":1200,"unit":"count","startDate":"2025-10-28T09:00:00Z","#
                + #""endDate":"2025-10-28T10:00:00Z"}"#
            #expect(try await Self.sync(app, token, steps).status == .ok)
            let gone = try await app.testing().sendRequest(
                .DELETE, "/api/v1/health/connections/healthkit", headers: .bearer(token))
            #expect(gone.status == .ok)
            let refused = try await Self.sync(app, token, steps)
            #expect(refused.status == .conflict)
            #expect(try refused.coreError().error.code == "PROVIDER_DISCONNECTED")
            #expect(try await HealthConnectionHTTPTests.connect(app, token, connect).status == .created)
            #expect(try await Self.sync(app, token, steps).status == .ok)
        }
    }

    @Test("seed 000: an instant with no zone lands on the day of the zone another client of the account sent last")
    func instantInTheAccountsZone() async throws {
        try await withHale(clock: HaleClock { HealthSyncHTTPTests.now }) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps", "distance"])
            let body = #"{"platform":"apple","data":{"steps":5234.0,"distance":3210.5,"date":"2025-10-29T02:03:11Z"}}"#
            let before = try await HealthSyncHTTPTests.post(app, "/api/mobile/health/sync", token, body)
            #expect(try before.json()["date"] as? String == "2025-10-29", "no zone known yet: UTC")

            var headers = HTTPHeaders.bearer(token)
            headers.add(name: "X-Timezone", value: "America/Los_Angeles")
            let page = try await app.testing().sendRequest(.GET, "/health/today", headers: headers)
            #expect(page.status == .ok, "\(page.body.string)")
            let after = try await HealthSyncHTTPTests.post(app, "/api/mobile/health/sync", token, body)
            #expect(try after.json()["date"] as? String == "2025-10-28", "19:03 in Los Angeles")
        }
    }
}
