import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Health values a hostile client sends: each is refused where it enters, and nothing it stored before the limits
/// existed can crash or stall a later request.
@Suite("HTTP: hostile health values")
struct HostileHealthInputTests {
    typealias Sync = HealthSampleSyncTests

    static func rejections(_ body: [String: Any]) -> [String] {
        (body["rejected"] as? [[String: Any]] ?? []).map { "\($0["index"] ?? "?"):\($0["code"] ?? "?")" }
    }

    @Test(
        "a sample of 1e19 steps is refused as implausible, and /health/today still answers",
        arguments: TestDatabase.available)
    func theIssuesCrash(database: TestDatabase) async throws {
        try await Sync.withAccount(on: database) { app, account, token in
            let body = try await Sync.sync(app, token, Sync.batch([Sync.sample("huge", 1e19), Sync.sample("ok", 500)]))
            #expect(Self.rejections(body) == ["0:VALUE_IMPLAUSIBLE"])
            let rejected = try #require((body["rejected"] as? [[String: Any]])?.first)
            #expect(rejected["message"] as? String == "The value is implausibly high: at most 100000 steps a day.")
            #expect(Sync.counts(body) == [1, 0, 0, 0, 1])
            let today = try await app.testing().sendRequest(.GET, "/health/today", headers: .bearer(token))
            #expect(today.status == .ok, "\(today.body.string)")
            let week = try await app.testing().sendRequest(
                .GET, "/health/statistics?startDate=2025-10-22&endDate=2025-10-29", headers: .bearer(token))
            #expect((try week.json()["summary"] as? [String: Any])?["steps"] as? Int == 500)
        }
    }

    @Test("a sample from the year 1 to 9999 is refused at once, as too long", arguments: TestDatabase.available)
    func theIssuesStall(database: TestDatabase) async throws {
        try await Sync.withAccount(on: database) { app, account, token in
            let body = try await Sync.sync(
                app, token,
                Sync.batch([Sync.sample("ages", 10, start: "0001-01-01T00:00:00Z", end: "9999-12-31T00:00:00Z")]))
            #expect(Self.rejections(body) == ["0:DURATION_TOO_LONG"])
            #expect(try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-10-28", "2025-10-28").isEmpty)
        }
    }

    @Test(
        "each limit of the table, with its code",
        arguments: [
            (Sync.sample("long", 10, start: "2025-10-27T09:00:00Z", end: "2025-10-28T09:00:01Z"), "DURATION_TOO_LONG"),
            (Sync.sample("old", 10, start: "2024-10-27T09:00:00Z", end: "2024-10-27T10:00:00Z"), "SAMPLE_TOO_OLD"),
            (Sync.sample("ahead", 10, start: "2025-10-30T12:00:01Z", end: "2025-10-30T13:00:00Z"), "SAMPLE_IN_FUTURE"),
            (Sync.sample("km", 251, type: "distance", unit: "km"), "VALUE_IMPLAUSIBLE"),
            (Sync.sample("kcal", 15_001, type: "calories", unit: "kcal"), "VALUE_IMPLAUSIBLE"),
            (Sync.sample("tiny", .leastNonzeroMagnitude), nil), (Sync.sample("zero", -0.0), nil),
            (Sync.sample("max", 100_000), nil),
        ] as [(String, String?)])
    func limits(sample: String, code: String?) async throws {
        try await Sync.withAccount { app, _, token in
            let body = try await Sync.sync(app, token, Sync.batch([sample]))
            #expect(Self.rejections(body) == (code.map { ["0:\($0)"] } ?? []))
        }
    }

    @Test("text fields are bounded: a source field too long is refused, and so is a deletion id")
    func textLimits() async throws {
        try await Sync.withAccount { app, _, token in
            let bundle = String(repeating: "b", count: 256)
            let sample = Sync.sample("a", 10).replacingOccurrences(of: "}", with: #","sourceBundle":"\#(bundle)"}"#)
            let body = try await Sync.sync(app, token, Sync.batch([sample]))
            #expect(Self.rejections(body) == ["0:FIELD_TOO_LONG"])
            #expect(
                (body["rejected"] as? [[String: Any]])?.first?["message"] as? String
                    == "sourceBundle is at most 255 bytes.")
            let deletion = try await HealthSyncHTTPTests.post(
                app, "/api/v1/health/sync", token,
                Sync.batch([], deletions: ["ok", String(repeating: "d", count: 256)]))
            #expect(deletion.status == .badRequest)
            #expect(
                try deletion.coreError().error.message
                    == "deletions[1] must be a sample id of 1 to 255 bytes with no control characters")
        }
    }

    @Test("a NUL character in any string of a body is a 400, on both databases", arguments: TestDatabase.available)
    func nulCharacter(database: TestDatabase) async throws {
        try await Sync.withAccount(on: database) { app, account, token in
            let response = try await HealthSyncHTTPTests.post(
                app, "/api/v1/health/sync", token, Sync.batch([Sync.sample("a\\u0000b", 10)]))
            #expect(response.status == .badRequest)
            #expect(
                try response.coreError().error.message == "Strings must not contain the NUL character (U+0000).")
            let escaped = try await Sync.sync(app, token, Sync.batch([Sync.sample("a\\\\u0000b", 10)]))
            #expect(Sync.counts(escaped) == [1, 0, 0, 0, 0], "a backslash followed by u0000 is only text")
        }
    }

    @Test("seed 000's daily totals: a 400 naming the field and the limit")
    func dailyTotals() async throws {
        try await Sync.withAccount { app, account, token in
            try await HealthSyncHTTPTests.grant(app, account, "google", ["steps", "distance"])
            let cases = [
                (#"{"steps":1e19,"date":"2025-10-29"}"#, "data.steps is implausibly high: at most 100000 steps a day"),
                (
                    #"{"distance":250000.5,"date":"2025-10-29"}"#,
                    "data.distance is implausibly high: at most 250000 m a day"
                ),
                (#"{"steps":-0.5,"date":"2025-10-29"}"#, "data.steps must be a number of zero or more"),
                (
                    #"{"steps":10,"date":"0001-01-01"}"#,
                    "data.date must be a day within the last 366 days and not in the future"
                ),
                (
                    #"{"steps":10,"date":"2025-10-31"}"#,
                    "data.date must be a day within the last 366 days and not in the future"
                ),
            ]
            for (data, message) in cases {
                let response = try await HealthSyncHTTPTests.post(
                    app, "/api/mobile/health/sync", token, #"{"platform":"google","data":\#(data)}"#)
                #expect(response.status == .badRequest, "\(data)")
                #expect(try response.coreError().error.message == message)
            }
        }
    }

    @Test(
        "a sample stored before the limits existed, 8,000 years long, is left out of the rollups instead of split",
        arguments: TestDatabase.available)
    func legacyRow(database: TestDatabase) async throws {
        try await Sync.withAccount(on: database) { app, account, token in
            let start = Date(timeIntervalSince1970: HealthSample.representableInstants.lowerBound)
            let end = Date(timeIntervalSince1970: HealthSample.representableInstants.upperBound)
            let legacy = StoredHealthSample(
                id: UUID(), accountId: account, provider: "healthkit", platformId: "legacy", type: "steps",
                value: 1e19, startAt: start, endAt: end, utcOffsetSeconds: 0, sourceBundle: nil, deviceModel: nil,
                deviceType: nil, userEntered: false, version: nil, dedupHash: "legacy", createdAt: start,
                updatedAt: start)
            try await SQLHealthSampleRepository(database: app.hale.database).insert([legacy])
            let body = try await Sync.sync(app, token, Sync.batch([Sync.sample("today", 300)]))
            #expect(Sync.counts(body) == [1, 0, 0, 0, 0])
            #expect(
                try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-10-27", "2025-10-29") == [
                    "2025-10-28": 300
                ])
        }
    }

    @Test(
        "a rollup far beyond any plausible day is clamped where it is read: today and statistics answer",
        arguments: TestDatabase.available)
    func storedRollupBeyondRange(database: TestDatabase) async throws {
        try await Sync.withAccount(on: database) { app, account, token in
            let repository = SQLHealthSampleRepository(database: app.hale.database)
            for (day, type) in [("2025-10-29", "steps"), ("2025-10-28", "steps"), ("2025-10-29", "calories")] {
                try await repository.setRollups(
                    of: account, type: type,
                    [
                        (
                            day: try #require(LocalDate(day)),
                            value: HealthRollupValue(all: 1e300, excludingUserEntered: 1e300)
                        )
                    ],
                    at: Sync.now)
            }
            let today = try await app.testing().sendRequest(.GET, "/health/today", headers: .bearer(token))
            #expect(today.status == .ok, "\(today.body.string)")
            #expect(try today.json()["steps"] as? Int == 1_000_000_000_000_000)
            let statistics = try await app.testing().sendRequest(
                .GET, "/health/statistics?startDate=2015-11-01&endDate=2025-10-29&period=month",
                headers: .bearer(token))
            #expect(statistics.status == .ok, "\(statistics.body.string)")
            let summary = try #require(try statistics.json()["summary"] as? [String: Any])
            #expect(summary["steps"] as? Int == 1_000_000_000_000_000)
        }
    }
}
