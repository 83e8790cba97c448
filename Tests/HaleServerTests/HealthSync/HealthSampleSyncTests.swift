import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// The seed 004 API's sample sync: deduplication, updates, deletions, units, source priority, retries and consent.
@Suite("HTTP: sample sync (seed 004)")
struct HealthSampleSyncTests {
    static let now = HealthSyncHTTPTests.now
    /// A HealthKit UUID, which is compared without regard to letter case.
    static let walk = "6F1E3C2A-9B7D-4E21-8F3A-1C2B3D4E5F60"

    /// A sample's JSON; times are on 2025-10-28 in UTC unless given.
    static func sample(
        _ id: String?, _ value: Double, type: String = "steps", unit: String = "count",
        start: String = "2025-10-28T09:00:00Z", end: String = "2025-10-28T10:00:00Z", model: String? = nil,
        userEntered: Bool = false, version: Int? = nil, offset: String? = nil
    ) -> String {
        var fields = [
            #""type":"\#(type)""#, #""value":\#(value)"#, #""unit":"\#(unit)""#, #""startDate":"\#(start)""#,
            #""endDate":"\#(end)""#, #""userEntered":\#(userEntered)"#,
        ]
        if let id { fields.append(#""id":"\#(id)""#) }
        if let model { fields.append(#""deviceModel":"\#(model)""#) }
        if let version { fields.append(#""version":\#(version)"#) }
        if let offset { fields.append(#""timeZoneOffset":"\#(offset)""#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func batch(_ samples: [String], deletions: [String] = [], extra: String = "") -> String {
        let deleted = deletions.map { #""\#($0)""# }.joined(separator: ",")
        return #"{"provider":"healthkit","syncType":"manual","samples":[\#(samples.joined(separator: ","))],"#
            + #""deletions":[\#(deleted)]\#(extra)}"#
    }

    static func sync(_ app: Application, _ token: String, _ body: String) async throws -> [String: Any] {
        let response = try await HealthSyncHTTPTests.post(app, "/api/v1/health/sync", token, body)
        #expect(response.status == .ok, "\(response.body.string)")
        return try response.json()
    }

    static func counts(_ body: [String: Any]) -> [Int] {
        let log = body["syncLog"] as? [String: Any] ?? [:]
        return ["recordsInserted", "recordsUpdated", "recordsDeduplicated", "recordsDeleted", "recordsRejected"].map {
            log[$0] as? Int ?? -1
        }
    }

    static func withAccount(
        on database: TestDatabase = .sqlite, now: Date = Self.now,
        _ body: (Application, AccountID, String) async throws -> Void
    ) async throws {
        try await withHale(on: database, clock: HaleClock { now }) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(
                app, account.id, "apple", ["steps", "distance", "calories", "oxygen_saturation"])
            try await body(app, account.id, token)
        }
    }

    @Test(
        "re-sent samples are deduplicated; a newer version updates; an older one is stale; deletions remove",
        arguments: TestDatabase.available)
    func deduplicationUpdateDeletion(database: TestDatabase) async throws {
        try await Self.withAccount(on: database) { app, account, token in
            let first = [
                Self.sample(Self.walk, 1_000, version: 1),
                Self.sample("A2", 500, start: "2025-10-28T11:00:00Z", end: "2025-10-28T11:30:00Z"),
            ]
            #expect(Self.counts(try await Self.sync(app, token, Self.batch(first))) == [2, 0, 0, 0, 0])
            #expect(Self.counts(try await Self.sync(app, token, Self.batch(first))) == [0, 0, 2, 0, 0])
            let changed = [
                Self.sample(Self.walk.lowercased(), 1_200, version: 2), Self.sample(Self.walk, 900, version: 1),
            ]
            #expect(Self.counts(try await Self.sync(app, token, Self.batch(changed))) == [0, 1, 1, 0, 0])
            #expect(
                try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-10-28", "2025-10-28") == [
                    "2025-10-28": 1_700
                ])
            let deleted = try await Self.sync(app, token, Self.batch([], deletions: ["A2", "unknown"]))
            #expect(Self.counts(deleted) == [0, 0, 0, 1, 0])
            #expect(
                try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-10-28", "2025-10-28") == [
                    "2025-10-28": 1_200
                ])
            let gone = try await Self.sync(app, token, Self.batch([], deletions: [Self.walk]))
            #expect(Self.counts(gone) == [0, 0, 0, 1, 0])
            #expect(try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-10-28", "2025-10-28").isEmpty)
        }
    }

    @Test(
        "samples with millisecond times are deduplicated when re-sent, whatever the milliseconds",
        arguments: TestDatabase.available)
    func millisecondTimesDeduplicate(database: TestDatabase) async throws {
        try await Self.withAccount(on: database) { app, _, token in
            // `hale demo` found this: times a real client sends carry milliseconds, and some of them did not read
            // back from SQLite as the same Date, so an unchanged sample counted as an update.
            let samples = (0..<60).map { index in
                let milliseconds = String(format: "%03d", index * 16 + 7)
                return Self.sample(
                    "MS\(index)", 10, start: "2025-10-28T09:\(String(format: "%02d", index)):01.\(milliseconds)Z",
                    end: "2025-10-28T09:\(String(format: "%02d", index)):31.\(milliseconds)Z")
            }
            let first = try await Self.sync(app, token, Self.batch(samples))
            let again = try await Self.sync(app, token, Self.batch(samples))
            #expect(Self.counts(first) == [60, 0, 0, 0, 0])
            #expect(Self.counts(again) == [0, 0, 60, 0, 0])
        }
    }

    @Test("a sample without an id is identified by seed 004's content hash")
    func withoutId() async throws {
        try await Self.withAccount { app, account, token in
            let samples = [Self.sample(nil, 300), Self.sample(nil, 300)]
            let first = try await Self.sync(app, token, Self.batch(samples))
            #expect(Self.counts(first) == [1, 0, 1, 0, 0])
            let changed = try await Self.sync(app, token, Self.batch([Self.sample(nil, 301)]))
            #expect(Self.counts(changed) == [1, 0, 0, 0, 0])
            let totals = try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-10-28", "2025-10-28")
            #expect(totals == ["2025-10-28": 601])
        }
    }

    @Test("units are normalised: kJ and cal to kcal, km to m, HealthKit's % as a fraction")
    func units() async throws {
        try await Self.withAccount { app, account, token in
            let samples = [
                Self.sample("E1", 418.4, type: "calories", unit: "kJ"),
                Self.sample(
                    "E2", 50_000, type: "calories", unit: "cal", start: "2025-10-28T12:00:00Z",
                    end: "2025-10-28T13:00:00Z"),
                Self.sample("D1", 1.5, type: "distance", unit: "km"),
                Self.sample(
                    "O1", 0.97, type: "oxygen_saturation", unit: "%", start: "2025-10-28T09:00:00Z",
                    end: "2025-10-28T09:00:00Z"),
                Self.sample(
                    "O2", 97, type: "oxygen_saturation", unit: "%", start: "2025-10-28T10:00:00Z",
                    end: "2025-10-28T10:00:00Z"
                ),
            ]
            let body = try await Self.sync(app, token, Self.batch(samples))
            #expect(Self.counts(body) == [4, 0, 0, 0, 1])
            #expect((body["syncLog"] as? [String: Any])?["status"] as? String == "partial")
            let rejected = body["rejected"] as? [[String: Any]] ?? []
            #expect(rejected.map { $0["index"] as? Int } == [4])
            #expect(rejected.first?["code"] as? String == "VALUE_OUT_OF_RANGE")
            #expect(
                try await HealthSyncHTTPTests.totals(app, account, .calories, "2025-10-28", "2025-10-28") == [
                    "2025-10-28": 150
                ])
            #expect(
                try await HealthSyncHTTPTests.totals(app, account, .distance, "2025-10-28", "2025-10-28") == [
                    "2025-10-28": 1_500
                ])
            #expect(
                try await HealthSyncHTTPTests.totals(app, account, .oxygenSaturation, "2025-10-28", "2025-10-28") == [
                    "2025-10-28": 97
                ])
        }
    }

    @Test("a walk recorded by a watch and a phone counts once: the watch's, plus what the phone saw alone")
    func sourcePriority() async throws {
        try await Self.withAccount { app, account, token in
            let samples = [
                Self.sample("W", 6_000, model: "Watch6,2"),
                Self.sample(
                    "P", 8_000, start: "2025-10-28T09:00:00Z", end: "2025-10-28T11:00:00Z", model: "iPhone15,3"),
                Self.sample("M", 2_000, start: "2025-10-28T09:00:00Z", end: "2025-10-28T11:00:00Z", userEntered: true),
            ]
            _ = try await Self.sync(app, token, Self.batch(samples))
            #expect(
                try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-10-28", "2025-10-28") == [
                    "2025-10-28": 10_000
                ])
            let devices = try await app.hale.healthSync.dailyTotals(
                of: account, type: .steps, from: LocalDate("2025-10-28")!, through: LocalDate("2025-10-28")!,
                includingUserEntered: false)
            #expect(devices[LocalDate("2025-10-28")!] == 10_000)
        }
    }

    @Test("days follow each sample's own offset, on DST days in New York and Berlin", arguments: TestDatabase.available)
    func daylightSaving(database: TestDatabase) async throws {
        // After the last of the samples: a sample may start at most a day ahead of the server's clock.
        let after = Date(timeIntervalSince1970: 1_762_300_800)  // 2025-11-05T00:00:00Z
        try await Self.withAccount(on: database, now: after) { app, account, token in
            // New York, 2025-11-02: 01:30 EDT (-04:00) and 01:30 EST (-05:00) are both the 2nd; 23:30 EST is too.
            // Berlin, 2025-03-30: 01:30 CET (+01:00) and 03:30 CEST (+02:00) are the 30th; 00:30 CEST the 31st.
            let samples = [
                Self.sample("NY1", 100, start: "2025-11-02T05:30:00Z", end: "2025-11-02T05:31:00Z", offset: "-04:00"),
                Self.sample("NY2", 200, start: "2025-11-02T06:30:00Z", end: "2025-11-02T06:31:00Z", offset: "-05:00"),
                Self.sample("NY3", 400, start: "2025-11-03T04:30:00Z", end: "2025-11-03T04:31:00Z", offset: "-05:00"),
                Self.sample("NY4", 800, start: "2025-11-02T03:30:00Z", end: "2025-11-02T03:31:00Z", offset: "-04:00"),
                Self.sample("B1", 10, start: "2025-03-30T00:30:00Z", end: "2025-03-30T00:31:00Z", offset: "+01:00"),
                Self.sample("B2", 20, start: "2025-03-30T01:30:00Z", end: "2025-03-30T01:31:00Z", offset: "+02:00"),
                Self.sample("B3", 40, start: "2025-03-30T22:30:00Z", end: "2025-03-30T22:31:00Z", offset: "+02:00"),
                Self.sample("B4", 80, start: "2025-03-29T23:30:00Z", end: "2025-03-29T23:31:00Z", offset: "+01:00"),
            ]
            _ = try await Self.sync(app, token, Self.batch(samples))
            #expect(
                try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-11-01", "2025-11-03") == [
                    "2025-11-01": 800, "2025-11-02": 700,
                ])
            #expect(
                try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-03-29", "2025-03-31") == [
                    "2025-03-30": 110, "2025-03-31": 40,
                ])
        }
    }

    @Test("a retried batch with its batchId returns the first sync's log and changes nothing")
    func idempotentRetry() async throws {
        try await Self.withAccount { app, account, token in
            let body = Self.batch([Self.sample("R1", 50)], extra: #","batchId":"b-1""#)
            let first = try await Self.sync(app, token, body)
            let retry = try await Self.sync(app, token, body)
            #expect(retry["replayed"] as? Bool == true)
            #expect(
                (retry["syncLog"] as? [String: Any])?["id"] as? String == (first["syncLog"] as? [String: Any])?["id"]
                    as? String)
            let logs = try await app.testing().sendRequest(.GET, "/api/v1/health/sync-logs", headers: .bearer(token))
            #expect((try logs.json()["syncLogs"] as? [Any])?.count == 1)
            #expect(
                try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-10-28", "2025-10-28") == [
                    "2025-10-28": 50
                ])
        }
    }

    @Test("a type without consent refuses the whole batch with 403 and logs a failed sync")
    func consentRequired() async throws {
        try await Self.withAccount { app, account, token in
            let body = Self.batch([Self.sample("S1", 50), Self.sample("W1", 1_800, type: "workouts", unit: "s")])
            let response = try await HealthSyncHTTPTests.post(app, "/api/v1/health/sync", token, body)
            #expect(response.status == .forbidden)
            #expect(try response.coreError().error.code == "CONSENT_REQUIRED")
            #expect(try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-10-28", "2025-10-28").isEmpty)
            let logs = try await app.hale.healthSync.logs(of: account, limit: nil)
            #expect(logs.map(\.status) == [.failed])
        }
    }

    @Test("revoking consent deletes that data and its rollups, and nothing else", arguments: TestDatabase.available)
    func revocationDeletes(database: TestDatabase) async throws {
        try await Self.withAccount(on: database) { app, account, token in
            _ = try await Self.sync(
                app, token, Self.batch([Self.sample("S1", 50), Self.sample("D1", 40, type: "distance", unit: "m")]))
            _ = try await app.hale.healthConsents.revoke(platform: .apple, permission: .steps, of: account)
            #expect(try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-10-28", "2025-10-28").isEmpty)
            #expect(
                try await HealthSyncHTTPTests.totals(app, account, .distance, "2025-10-28", "2025-10-28") == [
                    "2025-10-28": 40
                ])
            let again = try await HealthSyncHTTPTests.post(
                app, "/api/v1/health/sync", token, Self.batch([Self.sample("S1", 50)]))
            #expect(again.status == .forbidden)
        }
    }

    @Test(
        "a bad batch is refused whole with a clear 4xx",
        arguments: [
            (#"{"provider":"fitbit","samples":[]}"#, 400),
            (#"{"provider":"healthkit","syncType":"hourly","samples":[]}"#, 400),
            (#"{"provider":"healthkit","lookbackDays":0,"samples":[]}"#, 400),
            (#"{"provider":"healthkit","batchId":"","samples":[]}"#, 400),
            (#"{"provider":"healthkit","samples":[{"type":"steps"}]}"#, 400),
            (#"{"provider":"healthkit","samples":{}}"#, 400),
            (#"{"provider":"healthkit","samples":[],"extra":1}"#, 400),
        ])
    func badBatches(body: String, status: Int) async throws {
        try await Self.withAccount { app, _, token in
            let response = try await HealthSyncHTTPTests.post(app, "/api/v1/health/sync", token, body)
            #expect(response.status.code == UInt(status), "\(response.body.string)")
            #expect(try response.coreError().error.code == "INVALID_REQUEST")
        }
    }

    @Test("more than 10,000 samples is 413")
    func tooLarge() async throws {
        try await Self.withAccount { app, _, token in
            let one = Self.sample(nil, 1)
            let body = Self.batch(Array(repeating: one, count: 10_001))
            let response = try await HealthSyncHTTPTests.post(app, "/api/v1/health/sync", token, body)
            #expect(response.status == .payloadTooLarge, "\(response.body.string.prefix(200))")
        }
    }

    @Test("rejected samples are each named with a code; the rest are stored")
    func rejections() async throws {
        try await Self.withAccount { app, account, token in
            let samples = [
                Self.sample("ok", 10),
                Self.sample("u", 10, unit: "furlong"),
                Self.sample("t", 60, type: "heart_rate", unit: "count/min"),
                Self.sample("n", -5),
                Self.sample("d", 10, start: "yesterday"),
                Self.sample("e", 10, start: "2025-10-28T10:00:00Z", end: "2025-10-28T09:00:00Z"),
                Self.sample("m", 10, type: "steps", unit: "kcal"),
                Self.sample("o", 10, offset: "+25:00"),
            ]
            let body = try await Self.sync(app, token, Self.batch(samples))
            let codes = (body["rejected"] as? [[String: Any]] ?? []).map { $0["code"] as? String ?? "" }
            #expect(
                codes == [
                    "UNKNOWN_UNIT", "UNKNOWN_TYPE", "VALUE_NEGATIVE", "INVALID_DATE", "END_BEFORE_START",
                    "UNIT_MISMATCH", "INVALID_OFFSET",
                ])
            #expect(Self.counts(body) == [1, 0, 0, 0, 7])
            #expect(
                try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-10-28", "2025-10-28") == [
                    "2025-10-28": 10
                ])
        }
    }
}

@Suite("Health sync: configured source priority")
struct SourcePriorityConfigurationTests {
    @Test("a type can put the phone first; others keep the default; apps order within a device class")
    func perType() throws {
        let priorities = try SourcePriorities(
            devices: ["steps:phone>watch>other"], apps: ["*:com.garmin.connect>com.apple.health"])
        #expect(priorities.priority(for: "steps").deviceOrder == [.phone, .watch, .other])
        #expect(priorities.priority(for: "distance").deviceOrder == [.watch, .phone, .other])
        #expect(priorities.priority(for: "steps").bundleOrder == ["com.garmin.connect", "com.apple.health"])
        #expect(priorities.priority(for: "unknown") == priorities.fallback)
    }

    @Test(
        "a malformed entry is a configuration error",
        arguments: ["steps", "steps:", "heart_rate:watch", "steps:watch>tablet", "*:watch,*:phone"])
    func malformed(_ entry: String) {
        #expect(throws: ConfigError.self) {
            try SourcePriorities(devices: entry.split(separator: ",").map(String.init), apps: [])
        }
    }

    @Test("with the phone put first for steps, a phone's steps win over the watch's", arguments: TestDatabase.available)
    func phoneFirst(database: TestDatabase) async throws {
        try await withHale(
            on: database, clock: HaleClock { HealthSyncHTTPTests.now },
            settings: ["health.sourcePriority.devices": "steps:phone>watch>other"]
        ) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps"])
            let samples = [
                HealthSampleSyncTests.sample("W", 6_000, model: "Watch6,2"),
                HealthSampleSyncTests.sample("P", 5_000, model: "iPhone15,3"),
            ]
            _ = try await HealthSampleSyncTests.sync(app, token, HealthSampleSyncTests.batch(samples))
            let totals = try await HealthSyncHTTPTests.totals(app, account.id, .steps, "2025-10-28", "2025-10-28")
            #expect(totals == ["2025-10-28": 5_000])
        }
    }
}
