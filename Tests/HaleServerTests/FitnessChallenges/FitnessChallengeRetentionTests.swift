import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// A challenge can outlast the health data it counted: what retention deletes stays in progress, until the person
/// revokes or deletes the data it came from.
@Suite("Fitness challenges: progress past retention")
struct FitnessChallengeRetentionTests {
    typealias HTTP = FitnessChallengeHTTP
    typealias Sync = HealthSampleSyncTests

    static let samples = [
        Sync.sample("october", 1_000, start: "2025-10-10T09:00:00Z", end: "2025-10-10T10:00:00Z"),
        Sync.sample(
            "typed", 500, start: "2025-10-11T09:00:00Z", end: "2025-10-11T10:00:00Z", userEntered: true),
        Sync.sample("november", 2_000, start: "2025-11-01T09:00:00Z", end: "2025-11-01T10:00:00Z"),
    ]
    static let late = Sync.sample("late", 400, start: "2025-11-20T09:00:00Z", end: "2025-11-20T10:00:00Z")

    /// Two challenges over October to December, one counting user-entered samples, with the samples synced, and
    /// the clock moved on until October's rollups are past the 30-day retention and deleted.
    static func expired(_ app: Application, _ clock: TestClock) async throws -> (AccountID, String, String, String) {
        let (account, token) = try await HTTP.account(app)
        let devices = try await HTTP.created(app, token, HTTP.body(start: "2025-10-01", end: "2025-12-31"))
        let everything = try await HTTP.created(
            app, token, HTTP.body(start: "2025-10-01", end: "2025-12-31", extra: #","includesUserEntered":true"#))
        _ = try await Sync.sync(app, token, Sync.batch(samples))
        let ids = (devices["id"] as? String ?? "", everything["id"] as? String ?? "")
        #expect(try await HTTP.progress(app, token, ids.0) == 3_000)
        #expect(try await HTTP.progress(app, token, ids.1) == 3_500)
        clock.advance(.seconds(20 * 86_400))  // 2025-11-25: the cutoff is 2025-10-26.
        #expect(try await app.hale.healthRetention.deleteExpired() == 2)
        let october = try await HealthSyncHTTPTests.totals(app, account, .steps, "2025-10-01", "2025-10-31")
        #expect(october.isEmpty)
        return (account, token, ids.0, ids.1)
    }

    @Test("a sync after retention deleted a window's early days still counts them", arguments: TestDatabase.available)
    func syncAfterExpiry(database: TestDatabase) async throws {
        let clock = TestClock(HTTP.start)
        try await withHale(on: database, clock: clock.clock) { app in
            let (_, token, devices, everything) = try await Self.expired(app, clock)
            #expect(try await HTTP.progress(app, token, devices) == 3_000)
            _ = try await Sync.sync(app, token, Sync.batch([Self.late]))
            #expect(try await HTTP.progress(app, token, devices) == 3_400)
            #expect(try await HTTP.progress(app, token, everything) == 3_900)
        }
    }

    @Test(
        "retention held after it has moved a day into expired progress, while a sync commits: nothing counts twice",
        .racesNeedPostgreSQL, arguments: [TestDatabase.postgres])
    func retentionRacingSync(database: TestDatabase) async throws {
        let clock = TestClock(HTTP.start)
        try await withHale(on: database, clock: clock.clock) { app in
            let (_, token) = try await HTTP.account(app)
            let challenge = try await HTTP.created(app, token, HTTP.body(start: "2025-10-01", end: "2025-12-31"))
            let id = challenge["id"] as? String ?? ""
            _ = try await Sync.sync(app, token, Sync.batch([Self.samples[0], Self.samples[2]]))
            #expect(try await HTTP.progress(app, token, id) == 3_000)
            clock.advance(.seconds(20 * 86_400))
            let hold = try await WriteHold.install(on: "fitness_challenge_members", in: app)
            let (expired, _) = try await hold.race(
                { try await app.hale.healthRetention.deleteExpired() },
                then: { _ = try await Sync.sync(app, token, Sync.batch([Self.late])) })
            #expect(expired == 1)
            #expect(try await HTTP.progress(app, token, id) == 3_400)
        }
    }

    @Test("leaving and joining again keeps what expired", arguments: TestDatabase.available)
    func rejoin(database: TestDatabase) async throws {
        let clock = TestClock(HTTP.start)
        try await withHale(on: database, clock: clock.clock) { app in
            let (_, token, devices, _) = try await Self.expired(app, clock)
            #expect(try await HTTP.post(app, token, "/\(devices)/leave").status == .ok)
            #expect(try await HTTP.post(app, token, "/\(devices)/join").status == .ok)
            #expect(try await HTTP.progress(app, token, devices) == 3_000)
        }
    }

    @Test("revoking consent or deleting the data forgets what expired", arguments: TestDatabase.available)
    func forgotten(database: TestDatabase) async throws {
        let clock = TestClock(HTTP.start)
        try await withHale(on: database, clock: clock.clock) { app in
            let (account, token, devices, everything) = try await Self.expired(app, clock)
            _ = try await app.hale.healthConsents.revoke(platform: .apple, permission: .steps, of: account)
            #expect(try await HTTP.progress(app, token, devices) == 0)
            #expect(try await HTTP.progress(app, token, everything) == 0)
        }
        let other = TestClock(HTTP.start)
        try await withHale(on: database, clock: other.clock) { app in
            let (account, token, devices, _) = try await Self.expired(app, other)
            _ = try await app.hale.healthDataRights.deleteAll(of: account)
            #expect(try await HTTP.progress(app, token, devices) == 0)
        }
    }
}
