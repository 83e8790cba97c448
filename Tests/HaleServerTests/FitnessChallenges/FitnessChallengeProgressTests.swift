import Foundation
import HaleTesting
import SQLKit
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
            _ = try await app.hale.healthConsents.revoke(platform: .apple, permission: .steps, of: account)
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
        "a join held after it has read the rollups while the member's sync commits: progress counts the sync",
        .racesNeedPostgreSQL, arguments: [TestDatabase.postgres])
    func joinRacingSync(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HTTP.start }) { app in
            let (_, creator) = try await HTTP.account(app)
            let challenge = try await HTTP.created(app, creator, HTTP.body(extra: #","visibility":"public""#))["id"]
            let id = challenge as? String ?? ""
            let (_, token) = try await HTTP.account(app, "member@example.com")
            let hold = try await WriteHold.install(on: "fitness_challenge_members", in: app)
            let (joined, _) = try await hold.race(
                { try await HTTP.post(app, token, "/\(id)/join").status },
                then: { _ = try await Sync.sync(app, token, Sync.batch([Sync.sample("walk", 1_000)])) })
            #expect(joined == .ok)
            #expect(try await HTTP.progress(app, token, id) == 1_000)
        }
    }

    @Test(
        "a creation held after it has read the rollups while the creator's sync commits: progress counts the sync",
        .racesNeedPostgreSQL, arguments: [TestDatabase.postgres])
    func createRacingSync(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HTTP.start }) { app in
            let (_, token) = try await HTTP.account(app)
            let hold = try await WriteHold.install(on: "fitness_challenge_members", in: app)
            let (created, _) = try await hold.race(
                {
                    let response = try await HTTP.create(app, token, HTTP.body())
                    return try response.json()["challenge"].flatMap { ($0 as? [String: Any])?["id"] as? String }
                },
                then: { _ = try await Sync.sync(app, token, Sync.batch([Sync.sample("walk", 1_000)])) })
            #expect(try await HTTP.progress(app, token, try #require(created)) == 1_000)
        }
    }
}
