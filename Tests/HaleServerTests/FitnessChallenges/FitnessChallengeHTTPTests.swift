import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Creating, listing, joining, leaving and ranking fitness challenges over HTTP.
@Suite("HTTP: fitness challenges")
struct FitnessChallengeHTTPTests {
    typealias HTTP = FitnessChallengeHTTP
    typealias Sync = HealthSampleSyncTests

    @Test("a created challenge answers every field, and its creator is its first member")
    func created() async throws {
        try await withHale(clock: HaleClock { HTTP.start }) { app in
            let (_, token) = try await HTTP.account(app)
            let response = try await HTTP.create(
                app, token, HTTP.body(name: "Move more", type: "activeMinutes", goal: 3_600))
            #expect(response.status == .created, "\(response.body.string)")
            let challenge = try response.json()["challenge"] as? [String: Any] ?? [:]
            #expect(challenge["name"] as? String == "Move more")
            #expect(challenge["type"] as? String == "active_minutes")
            #expect(challenge["goal"] as? Double == 3_600)
            #expect(challenge["startDate"] as? String == "2025-10-28")
            #expect(challenge["endDate"] as? String == "2025-11-03")
            #expect(challenge["visibility"] as? String == "private")
            #expect(challenge["includesUserEntered"] as? Bool == false)
            #expect(challenge["verified"] as? Bool == false && challenge["verifiedSources"] == nil)
            #expect(challenge["memberCount"] as? Int == 1)
            #expect(challenge["joined"] as? Bool == true)
            #expect(challenge["progress"] as? Double == 0)
            #expect(challenge["createdAt"] as? String == "2025-11-05T00:00:00.000Z")
            #expect(challenge.count == 13)
        }
    }

    @Test(
        "the leaderboard ranks by progress; leaving takes a member off it, and rejoining puts them back",
        arguments: TestDatabase.available)
    func leaderboard(database: TestDatabase) async throws {
        let clock = TestClock(HTTP.start)
        try await withHale(on: database, clock: clock.clock) { app in
            let (alice, aliceToken) = try await HTTP.account(app)
            let (bob, bobToken) = try await HTTP.account(app, "bob@example.com")
            let (carol, carolToken) = try await HTTP.account(app, "carol@example.com")
            let id =
                try await HTTP.created(app, aliceToken, HTTP.body(goal: 5_000, extra: #","visibility":"public""#))[
                    "id"] as? String ?? ""
            clock.advance(.seconds(1))
            #expect(try await HTTP.post(app, bobToken, "/\(id)/join").status == .ok)
            clock.advance(.seconds(1))
            #expect(try await HTTP.post(app, carolToken, "/\(id)/join").status == .ok)
            _ = try await Sync.sync(app, aliceToken, Sync.batch([Sync.sample("a", 3_000)]))
            _ = try await Sync.sync(app, bobToken, Sync.batch([Sync.sample("b", 6_000)]))

            let ranked = try await HTTP.leaderboard(app, aliceToken, id)
            #expect(ranked.map { $0["accountId"] as? String } == [bob, alice, carol].map(\.description))
            #expect(ranked.map { $0["rank"] as? Int } == [1, 2, 3])
            #expect(ranked.map { $0["progress"] as? Double } == [6_000, 3_000, 0])
            #expect(ranked.map { $0["completed"] as? Bool } == [true, false, false])

            let left = try await HTTP.post(app, bobToken, "/\(id)/leave")
            let afterLeaving = try left.json()["challenge"] as? [String: Any] ?? [:]
            #expect(afterLeaving["joined"] as? Bool == false)
            #expect(afterLeaving["progress"] is NSNull)
            #expect(afterLeaving["memberCount"] as? Int == 2)
            #expect(
                try await HTTP.leaderboard(app, aliceToken, id).map { $0["accountId"] as? String }
                    == [alice, carol].map(\.description))
            let kept = try await app.hale.database.sql.select().column("progress").from("fitness_challenge_members")
                .where("account_id", .equal, bob).first(decoding: [String: Double].self)
            #expect(kept == ["progress": 0])
            let joined = try await HTTP.get(app, bobToken, "?scope=joined")
            #expect((try joined.json()["challenges"] as? [Any])?.isEmpty == true)

            _ = try await Sync.sync(
                app, bobToken,
                Sync.batch([Sync.sample("b2", 1_000, start: "2025-10-30T08:00:00Z", end: "2025-10-30T09:00:00Z")]))
            clock.advance(.seconds(1))
            let rejoined = try await HTTP.post(app, bobToken, "/\(id)/join")
            let afterRejoining = try rejoined.json()["challenge"] as? [String: Any] ?? [:]
            #expect(afterRejoining["progress"] as? Double == 7_000)
            #expect(afterRejoining["memberCount"] as? Int == 3)
            #expect(
                try await HTTP.leaderboard(app, carolToken, id).map { $0["accountId"] as? String }
                    == [bob, alice, carol].map(\.description))
        }
    }

    @Test(
        "a private challenge is never listed publicly, is found by its id, and ranks only for members",
        arguments: TestDatabase.available)
    func privateChallenge(database: TestDatabase) async throws {
        let clock = TestClock(HTTP.start)
        try await withHale(on: database, clock: clock.clock) { app in
            let (_, owner) = try await HTTP.account(app)
            let (_, guest) = try await HTTP.account(app, "guest@example.com")
            let open = try await HTTP.created(app, owner, HTTP.body(name: "Open", extra: #","visibility":"public""#))
            clock.advance(.seconds(1))
            let invite = try await HTTP.created(app, owner, HTTP.body(name: "Invite only"))
            let id = invite["id"] as? String ?? ""
            clock.advance(.seconds(1))
            let newest = try await HTTP.created(app, owner, HTTP.body(name: "Newer", extra: #","visibility":"public""#))

            let listed = try await HTTP.get(app, guest, "?scope=public")
            #expect(listed.status == .ok)
            let names = (try listed.json()["challenges"] as? [[String: Any]] ?? []).map { $0["id"] as? String }
            #expect(names == [newest["id"] as? String, open["id"] as? String])
            let mine = try await HTTP.get(app, owner, "")
            #expect((try mine.json()["challenges"] as? [[String: Any]])?.count == 3)

            let found = try await HTTP.get(app, guest, "/\(id)")
            #expect(found.status == .ok)
            let seen = try found.json()["challenge"] as? [String: Any] ?? [:]
            #expect(seen["joined"] as? Bool == false)
            #expect(seen["progress"] is NSNull)
            let hidden = try await HTTP.get(app, guest, "/\(id)/leaderboard")
            #expect(hidden.status == .notFound)
            #expect(try hidden.coreError().error.code == "RESOURCE_NOT_FOUND")

            #expect(try await HTTP.post(app, guest, "/\(id)/join").status == .ok)
            #expect(try await HTTP.leaderboard(app, guest, id).count == 2)
        }
    }

    @Test("an unknown or malformed id is a 404", arguments: ["", "/leaderboard", "/join", "/leave"])
    func unknownID(suffix: String) async throws {
        try await withHale(clock: HaleClock { HTTP.start }) { app in
            let (_, token) = try await HTTP.account(app)
            for id in [UUID().uuidString, "not-a-uuid"] {
                let response =
                    suffix.hasPrefix("/j") || suffix.hasPrefix("/leave")
                    ? try await HTTP.post(app, token, "/\(id)\(suffix)")
                    : try await HTTP.get(app, token, "/\(id)\(suffix)")
                #expect(response.status == .notFound, "\(response.body.string)")
                #expect(try response.coreError().error.code == "RESOURCE_NOT_FOUND")
            }
        }
    }

    @Test("an unknown scope is a 400")
    func unknownScope() async throws {
        try await withHale(clock: HaleClock { HTTP.start }) { app in
            let (_, token) = try await HTTP.account(app)
            let response = try await HTTP.get(app, token, "?scope=everyone")
            #expect(response.status == .badRequest)
            #expect(try response.coreError().error.message == "scope must be joined or public")
        }
    }

    @Test(
        "a bad challenge is a 400 that says what is wrong",
        arguments: [
            (HTTP.body(name: ""), "name must be 1 to 100 characters"),
            (HTTP.body(name: String(repeating: "x", count: 101)), "name must be 1 to 100 characters"),
            (HTTP.body(name: "  \\u3000 "), "not only spaces"),
            (HTTP.body(name: "Walk\\u0001"), "no control characters"),
            (HTTP.body(name: "Walk\\u0000"), "Strings must not contain the NUL character"),
            (#"{"type":"steps","goal":1,"startDate":"2025-10-28","endDate":"2025-10-28"}"#, "name must be"),
            (HTTP.body(type: "oxygen_saturation"), "type must be one of: steps, distance, calories, active_minutes"),
            (HTTP.body(type: "workouts"), "type must be one of"),
            (HTTP.body(type: "sleep"), "type must be one of"),
            (HTTP.body(goal: 0), "goal must be a number above 0"),
            (HTTP.body(goal: -5), "goal must be a number above 0"),
            (HTTP.body(start: "2025-10-32"), "startDate must be a date as YYYY-MM-DD"),
            (HTTP.body(start: "28/10/2025"), "startDate must be a date as YYYY-MM-DD"),
            (HTTP.body(end: "2025-11-3"), "endDate must be a date as YYYY-MM-DD"),
            (HTTP.body(start: "2025-11-04", end: "2025-11-03"), "endDate must not be before startDate"),
            (HTTP.body(start: "2025-01-01", end: "2026-01-02"), "at most 366 days"),
            (HTTP.body(goal: 700_001), "goal must be at most 700000: 100000 steps a day over the challenge's days"),
            (HTTP.body(goal: 1e308), "goal must be at most 700000"),
            (HTTP.body(start: "2001-01-01", end: "2001-01-02"), "startDate must be within the last 366 days"),
            (HTTP.body(start: "2027-01-01", end: "2027-01-02"), "or the next 366 days"),
            (HTTP.body(extra: #","visibility":"friends""#), "visibility must be public or private"),
            (HTTP.body(extra: #","reward":"medal""#), #"Unknown field "reward"."#),
        ])
    func badRequests(body: String, message: String) async throws {
        try await withHale(clock: HaleClock { HTTP.start }) { app in
            let (_, token) = try await HTTP.account(app)
            let response = try await HTTP.create(app, token, body)
            #expect(response.status == .badRequest, "\(response.body.string)")
            let error = try response.coreError().error
            #expect(error.code == "INVALID_REQUEST")
            #expect(error.message.contains(message), "\(error.message)")
            let listed = try await HTTP.get(app, token, "")
            #expect((try listed.json()["challenges"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("a window of exactly 366 days is accepted")
    func longestWindow() async throws {
        try await withHale(clock: HaleClock { HTTP.start }) { app in
            let (_, token) = try await HTTP.account(app)
            let response = try await HTTP.create(app, token, HTTP.body(start: "2025-01-01", end: "2026-01-01"))
            #expect(response.status == .created, "\(response.body.string)")
        }
    }
}
