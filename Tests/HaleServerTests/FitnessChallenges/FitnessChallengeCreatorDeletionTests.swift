import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Deleting an account never deletes other people's data: a challenge outlives its creator for its other members,
/// with their progress; one that no one else joined goes with its creator.
@Suite("Fitness challenges: the creator's account is deleted")
struct FitnessChallengeCreatorDeletionTests {
    typealias HTTP = FitnessChallengeHTTP
    typealias Sync = HealthSampleSyncTests

    static func delete(_ app: Application, _ account: AccountID) async throws {
        let fresh = try await app.hale.sessions.start(
            account: account, device: nil, signInMethod: "passkey", rememberMe: false)
        let response = try await app.testing().sendRequest(
            .DELETE, "/api/v1/account", headers: .bearer(fresh.accessToken))
        #expect(response.status == .ok)
    }

    static func creator(_ app: Application, _ id: String) async throws -> AccountID?? {
        let row = try await app.hale.database.sql.raw(
            "SELECT creator_account_id FROM fitness_challenges WHERE id = \(bind: try #require(UUID(uuidString: id)))"
        ).first()
        return try row.map { try $0.decode(column: "creator_account_id", as: AccountID?.self) }
    }

    @Test(
        "the members keep the challenge, their progress and its invitation; an unjoined one goes",
        arguments: TestDatabase.available)
    func membersKeepIt(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HTTP.start }) { app in
            let (creator, creatorToken) = try await HTTP.account(app)
            let (member, memberToken) = try await HTTP.account(app, "member@example.com")
            let (_, laterToken) = try await HTTP.account(app, "later@example.com")
            let invited =
                try await HTTP.created(app, creatorToken, HTTP.body(name: "Invited"))["id"] as? String ?? ""
            let open =
                try await HTTP.created(app, creatorToken, HTTP.body(name: "Open", extra: #","visibility":"public""#))[
                    "id"] as? String ?? ""
            let alone = try await HTTP.created(app, creatorToken, HTTP.body(name: "Alone"))["id"] as? String ?? ""
            for id in [invited, open] {
                #expect(try await HTTP.post(app, memberToken, "/\(id)/join").status == .ok)
            }
            _ = try await Sync.sync(app, creatorToken, Sync.batch([Sync.sample("creator-walk", 9_000)]))
            _ = try await Sync.sync(app, memberToken, Sync.batch([Sync.sample("member-walk", 4_000)]))

            try await Self.delete(app, creator)

            #expect(try await HTTP.get(app, memberToken, "/\(alone)").status == .notFound)
            #expect(try await Self.creator(app, alone) == nil, "no one else joined it: it went with its creator")
            for id in [invited, open] {
                #expect(try await Self.creator(app, id) == .some(nil), "the challenge stays, with no creator")
                let response = try await HTTP.get(app, memberToken, "/\(id)")
                let challenge = try response.json()["challenge"] as? [String: Any] ?? [:]
                #expect(challenge["memberCount"] as? Int == 1 && challenge["progress"] as? Double == 4_000)
                let board = try await HTTP.leaderboard(app, memberToken, id)
                #expect(board.map { $0["accountId"] as? String } == [member.description])
            }
            let joined = try await HTTP.get(app, memberToken, "")
            let joinedIDs = Set(
                (try joined.json()["challenges"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
            #expect(joinedIDs == [invited, open])
            let listed = try await HTTP.get(app, laterToken, "?scope=public")
            #expect(
                (try listed.json()["challenges"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } == [open]
            )
            // The private challenge's id is still the invitation, and progress still follows syncs.
            #expect(try await HTTP.post(app, laterToken, "/\(invited)/join").status == .ok)
            _ = try await Sync.sync(
                app, memberToken,
                Sync.batch([
                    Sync.sample("member-run", 1_000, start: "2025-10-29T09:00:00Z", end: "2025-10-29T10:00:00Z")
                ]))
            #expect(try await HTTP.progress(app, memberToken, invited) == 5_000)
            #expect(try await HTTP.leaderboard(app, laterToken, invited).count == 2)
        }
    }

    @Test(
        "M0027 keeps every challenge and membership it finds, and reverting restores the cascade",
        arguments: TestDatabase.available)
    func migration(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HTTP.start }) { app in
            let (creator, creatorToken) = try await HTTP.account(app)
            let (_, memberToken) = try await HTTP.account(app, "member@example.com")
            let id = try await HTTP.created(app, creatorToken, HTTP.body())["id"] as? String ?? ""
            #expect(try await HTTP.post(app, memberToken, "/\(id)/join").status == .ok)
            _ = try await Sync.sync(app, memberToken, Sync.batch([Sync.sample("member-walk", 4_000)]))
            // Back to the table before M0027, which rebuilds it on SQLite with the columns it knew: the later
            // migrations of it go first. Today's code cannot write to that table; the rows above are in it.
            let migration = M0027_KeepChallengesOfDeletedCreators()
            let later = M0044_VerifyChallengeProgress()
            try await later.revert(on: app.hale.database.fluent)
            try await migration.revert(on: app.hale.database.fluent)

            try await migration.prepare(on: app.hale.database.fluent)
            try await later.prepare(on: app.hale.database.fluent)
            let members = try await app.hale.database.sql.raw(
                "SELECT COUNT(*) AS n FROM fitness_challenge_members WHERE challenge_id = \(bind: try #require(UUID(uuidString: id)))"
            ).first()?.decode(column: "n", as: Int.self)
            #expect(members == 2, "rebuilding the table kept its memberships")
            #expect(try await HTTP.progress(app, memberToken, id) == 4_000)
            try await Self.delete(app, creator)
            #expect(try await Self.creator(app, id) == .some(nil))
            #expect(try await HTTP.progress(app, memberToken, id) == 4_000)

            try await later.revert(on: app.hale.database.fluent)
            try await migration.revert(on: app.hale.database.fluent)
            #expect(try await Self.creator(app, id) == nil, "reverting deletes the challenges with no creator")
        }
    }
}
