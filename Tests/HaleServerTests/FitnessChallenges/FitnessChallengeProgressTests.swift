import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Progress is the members' rollups summed over the window, kept in step with every sync, update, deletion and
/// revocation, and never counting a sample twice.
@Suite("Fitness challenges: progress")
struct FitnessChallengeProgressTests {
    typealias HTTP = FitnessChallengeHTTP
    typealias Sync = HealthSampleSyncTests

    @Test(
        "a window across a month boundary counts the in-window days' rollups and nothing outside",
        arguments: TestDatabase.available)
    func monthBoundary(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HTTP.start }) { app in
            let (account, token) = try await HTTP.account(app)
            let challenge = try await HTTP.created(app, token, HTTP.body())
            let id = challenge["id"] as? String ?? ""
            #expect(challenge["progress"] as? Double == 0)
            let samples = [
                Sync.sample("before", 999, start: "2025-10-27T09:00:00Z", end: "2025-10-27T10:00:00Z"),
                Sync.sample("first", 1_000, start: "2025-10-28T09:00:00Z", end: "2025-10-28T10:00:00Z"),
                Sync.sample("midnight", 2_000, start: "2025-10-31T23:00:00Z", end: "2025-11-01T01:00:00Z"),
                Sync.sample("last", 3_000, start: "2025-11-03T22:00:00Z", end: "2025-11-03T23:00:00Z"),
                Sync.sample("after", 777, start: "2025-11-04T09:00:00Z", end: "2025-11-04T10:00:00Z"),
                Sync.sample("distance", 5_000, type: "distance", unit: "m"),
            ]
            _ = try await Sync.sync(app, token, Sync.batch(samples))
            let rollups = try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-10-28", "2025-11-03")
            #expect(rollups.values.reduce(0, +) == 6_000)
            #expect(try await HTTP.progress(app, token, id) == 6_000)
        }
    }

    @Test(
        "user-entered samples count only in a challenge that includes them", arguments: TestDatabase.available)
    func userEntered(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HTTP.start }) { app in
            let (_, token) = try await HTTP.account(app)
            let devices = try await HTTP.created(app, token, HTTP.body())["id"] as? String ?? ""
            let everything =
                try await HTTP.created(app, token, HTTP.body(extra: #","includesUserEntered":true"#))["id"]
                as? String ?? ""
            let samples = [
                Sync.sample("walk", 4_000),
                Sync.sample(
                    "typed", 1_500, start: "2025-10-29T09:00:00Z", end: "2025-10-29T10:00:00Z", userEntered: true),
            ]
            _ = try await Sync.sync(app, token, Sync.batch(samples))
            #expect(try await HTTP.progress(app, token, devices) == 4_000)
            #expect(try await HTTP.progress(app, token, everything) == 5_500)
        }
    }

    @Test(
        "a re-sent batch changes nothing; an updated sample and a deletion change progress",
        arguments: TestDatabase.available)
    func resentUpdatedDeleted(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HTTP.start }) { app in
            let (_, token) = try await HTTP.account(app)
            let id = try await HTTP.created(app, token, HTTP.body())["id"] as? String ?? ""
            let batch = Sync.batch([
                Sync.sample(Sync.walk, 1_000, version: 1),
                Sync.sample("run", 2_500, start: "2025-11-02T07:00:00Z", end: "2025-11-02T08:00:00Z"),
            ])
            _ = try await Sync.sync(app, token, batch)
            #expect(try await HTTP.progress(app, token, id) == 3_500)
            #expect(Sync.counts(try await Sync.sync(app, token, batch)) == [0, 0, 2, 0, 0])
            #expect(try await HTTP.progress(app, token, id) == 3_500)
            _ = try await Sync.sync(app, token, Sync.batch([Sync.sample(Sync.walk, 1_200, version: 2)]))
            #expect(try await HTTP.progress(app, token, id) == 3_700)
            _ = try await Sync.sync(app, token, Sync.batch([], deletions: ["run"]))
            #expect(try await HTTP.progress(app, token, id) == 1_200)
        }
    }

    @Test("revoking consent deletes the data and lowers progress", arguments: TestDatabase.available)
    func revokedConsent(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HTTP.start }) { app in
            let (account, token) = try await HTTP.account(app)
            let id = try await HTTP.created(app, token, HTTP.body())["id"] as? String ?? ""
            _ = try await Sync.sync(app, token, Sync.batch([Sync.sample("walk", 4_000)]))
            #expect(try await HTTP.progress(app, token, id) == 4_000)
            _ = try await app.hale.healthConsents.revoke(platform: "apple", permission: "steps", of: account)
            #expect(try await HTTP.progress(app, token, id) == 0)
        }
    }

    @Test("joining counts what was synced before", arguments: TestDatabase.available)
    func joinCountsEarlierData(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HTTP.start }) { app in
            let (_, creator) = try await HTTP.account(app)
            let (_, token) = try await HTTP.account(app, "other@example.com")
            _ = try await Sync.sync(app, token, Sync.batch([Sync.sample("walk", 4_000)]))
            let id = try await HTTP.created(app, creator, HTTP.body(extra: #","visibility":"public""#))["id"]
            let joined = try await HTTP.post(app, token, "/\(id as? String ?? "")/join")
            let challenge = try joined.json()["challenge"] as? [String: Any] ?? [:]
            #expect(challenge["progress"] as? Double == 4_000)
            #expect(challenge["memberCount"] as? Int == 2)
        }
    }

    @Test(
        "a join racing the member's sync ends with progress counting the sync, every time", .racesNeedPostgreSQL,
        arguments: TestDatabase.available)
    func joinRacingSync(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HTTP.start }) { app in
            let (_, creator) = try await HTTP.account(app)
            let id = try await HTTP.created(app, creator, HTTP.body(extra: #","visibility":"public""#))["id"]
            let challenge = id as? String ?? ""
            var members: [String] = []
            // Without the account's lock this fails in about two runs of three, not every time: the join must read
            // the rollups between the sync's write and its commit (docs/testing.md, "Races").
            for index in 0..<12 { members.append(try await HTTP.account(app, "member\(index)@example.com").1) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, token) in members.enumerated() {
                    let batch = Sync.batch([Sync.sample("walk-\(index)", Double(1_000 + index))])
                    group.addTask { _ = try await Sync.sync(app, token, batch) }
                    group.addTask {
                        let joined = try await HTTP.post(app, token, "/\(challenge)/join")
                        #expect(joined.status == .ok)
                    }
                }
                try await group.waitForAll()
            }
            for (index, token) in members.enumerated() {
                #expect(try await HTTP.progress(app, token, challenge) == Double(1_000 + index))
            }
        }
    }
}
