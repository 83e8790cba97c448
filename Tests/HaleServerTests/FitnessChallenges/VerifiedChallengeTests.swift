import ByteEncoding
import Crypto
import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Verified fitness challenges: only samples that attested writes brought count, never typed-in ones, only from the
/// kinds of device the creator chose, and only on days a person could have walked; members see what was left out.
@Suite("Fitness challenges: verified progress")
struct VerifiedChallengeTests {
    typealias HTTP = FitnessChallengeHTTP
    typealias Sync = HealthSampleSyncTests

    /// A member with an App Attest key of the development authority, who syncs with or without attestation.
    struct Member {
        let app: Application
        let account: AccountID
        let token: String
        let writer: HealthWriteAttestationTests.Writer

        static func make(_ app: Application, _ email: String = "person@example.com") async throws -> Member {
            let (account, token) = try await HTTP.account(app, email)
            let client = DevelopmentAttestationTests.Client(app: app, token: token)
            let attester = try await client.attester()
            let (keyID, registered) = try await client.register(attester)
            #expect(registered.status == .created, "\(registered.body.string)")
            return Member(
                app: app, account: account, token: token,
                writer: .init(client: client, attester: attester, keyID: keyID))
        }

        /// `POST /api/v1/health/sync` with `samples`, attested when asked.
        @discardableResult
        func sync(_ samples: [String], attested: Bool) async throws -> TestingHTTPResponse {
            let body = Data(Sync.batch(samples).utf8)
            var headers = HTTPHeaders.json(bearer: token)
            if attested {
                for (name, value) in try await writer.headers(for: body) {
                    headers.replaceOrAdd(name: name, value: value)
                }
            }
            let response = try await app.testing().sendRequest(
                .POST, "/api/v1/health/sync", headers: headers, body: ByteBuffer(data: body))
            #expect(response.status == .ok, "\(response.body.string)")
            return response
        }

        func challenge(_ id: String) async throws -> [String: Any] {
            let response = try await HTTP.get(app, token, "/\(id)")
            #expect(response.status == .ok, "\(response.body.string)")
            return try response.json()["challenge"] as? [String: Any] ?? [:]
        }

        func create(_ extra: String) async throws -> String {
            try await HTTP.created(app, token, HTTP.body(extra: extra))["id"] as? String ?? ""
        }
    }

    static func withMember(on database: TestDatabase = .sqlite, _ body: (Member) async throws -> Void) async throws {
        try await withHale(on: database, clock: HaleClock { HTTP.start }, settings: DevelopmentAttestationTests.on) {
            app in try await body(try await Member.make(app))
        }
    }

    static func sample(
        _ id: String, _ value: Double, hours: ClosedRange<Int> = 9...10, day: String = "2025-10-28",
        model: String = "Watch", type: String = "steps", unit: String = "count", userEntered: Bool = false
    ) -> String {
        let start = String(format: "%@T%02d:00:00Z", day, hours.lowerBound)
        let end = String(format: "%@T%02d:00:00Z", day, hours.upperBound)
        return Sync.sample(
            id, value, type: type, unit: unit, start: start, end: end, model: model, userEntered: userEntered)
    }

    @Test(
        "a verified challenge counts attested samples only; the other counts every device-recorded one",
        arguments: TestDatabase.available)
    func attestedOnly(database: TestDatabase) async throws {
        try await Self.withMember(on: database) { member in
            let verified = try await member.create(#","verified":true"#)
            let open = try await member.create("")
            try await member.sync(
                [Self.sample("walk", 4_000), Self.sample("typed", 1_500, hours: 13...14, userEntered: true)],
                attested: true)
            try await member.sync([Self.sample("run", 2_000, hours: 17...18, model: "iPhone")], attested: false)
            let challenge = try await member.challenge(verified)
            #expect(challenge["progress"] as? Double == 4_000)
            #expect(challenge["verified"] as? Bool == true)
            #expect(challenge["verifiedSources"] as? [String] == ["watch", "phone", "other"])
            let excluded = try #require(challenge["excluded"] as? [String: Any])
            #expect(excluded["userEntered"] as? Int == 1 && excluded["unattested"] as? Int == 1)
            #expect(excluded["total"] as? Int == 2 && excluded["sourceNotAllowed"] as? Int == 0)
            #expect(try await HTTP.progress(member.app, member.token, open) == 6_000)
            #expect(try await member.challenge(open)["excluded"] == nil)
            #expect(try await HTTP.leaderboard(member.app, member.token, verified).first?["verified"] as? Bool == true)
            #expect(try await HTTP.leaderboard(member.app, member.token, open).first?["verified"] as? Bool == false)
        }
    }

    @Test(
        "an attested write keeps what proved it (key, counter, nonce, body digest), named by its samples, deleted with them",
        arguments: TestDatabase.available)
    func proofKept(database: TestDatabase) async throws {
        try await Self.withMember(on: database) { member in
            let samples = [Self.sample("walk", 4_000)]
            try await member.sync(samples, attested: true)
            try await member.sync([Self.sample("later", 1_000, hours: 12...13)], attested: false)
            let sql = member.app.hale.database.sql
            let proofs = try await sql.raw(
                "SELECT id, platform, key_id, app_id, counter, nonce, body_sha256 FROM health_write_proofs"
            ).all()
            try #require(proofs.count == 1)
            let proof = proofs[0]
            #expect(try proof.decode(column: "platform", as: String.self) == "ios")
            #expect(try proof.decode(column: "key_id", as: String.self) == member.writer.keyID)
            #expect(try proof.decode(column: "counter", as: Int64.self) >= 1)
            #expect(try !proof.decode(column: "nonce", as: String.self).isEmpty)
            let body = Data(Sync.batch(samples).utf8)
            #expect(
                try proof.decode(column: "body_sha256", as: String.self)
                    == Base64URL.encode(Array(SHA256.hash(data: body))))
            let named = try await sql.raw("SELECT platform_id, proof_id FROM health_samples ORDER BY platform_id").all()
            let ids = try named.map { try $0.decode(column: "proof_id", as: UUID?.self) }
            #expect(ids == [nil, try proof.decode(column: "id", as: UUID.self)], "later, then walk")
            _ = try await member.app.hale.healthDataRights.deleteAll(of: member.account)
            #expect(try await sql.raw("SELECT id FROM health_write_proofs").all().isEmpty)
        }
    }

    @Test("an unattested sample sent again attested counts from then on; sent again unattested it stays attested")
    func attestedResend() async throws {
        try await Self.withMember { member in
            let verified = try await member.create(#","verified":true"#)
            try await member.sync([Self.sample("walk", 4_000)], attested: false)
            #expect(try await HTTP.progress(member.app, member.token, verified) == 0)
            try await member.sync([Self.sample("walk", 4_000)], attested: true)
            #expect(try await HTTP.progress(member.app, member.token, verified) == 4_000)
            try await member.sync([Self.sample("walk", 4_000)], attested: false)
            #expect(try await HTTP.progress(member.app, member.token, verified) == 4_000)
            #expect(try await HTTP.leaderboard(member.app, member.token, verified).first?["verified"] as? Bool == true)
        }
    }

    @Test("sources: a watch-only challenge leaves the phone out; both count a day's larger, never their sum")
    func sources() async throws {
        try await Self.withMember { member in
            let watch = try await member.create(#","verified":true,"verifiedSources":["watch"]"#)
            let both = try await member.create(#","verified":true,"verifiedSources":["phone","watch"]"#)
            try await member.sync(
                [
                    Self.sample("watch", 3_000), Self.sample("phone", 5_000, model: "iPhone"),
                    Self.sample("phone-next-day", 1_000, day: "2025-10-29", model: "iPhone"),
                ], attested: true)
            let watchOnly = try await member.challenge(watch)
            #expect(watchOnly["progress"] as? Double == 3_000)
            #expect(watchOnly["verifiedSources"] as? [String] == ["watch"])
            #expect((watchOnly["excluded"] as? [String: Any])?["sourceNotAllowed"] as? Int == 2)
            #expect(try await HTTP.progress(member.app, member.token, both) == 6_000)
        }
    }

    @Test(
        "a step rate nobody keeps leaves its day out of a verified challenge, shown with why, and unmarks the member",
        arguments: TestDatabase.available)
    func implausibleRate(database: TestDatabase) async throws {
        try await Self.withMember(on: database) { member in
            let verified = try await member.create(#","verified":true"#)
            let open = try await member.create("")
            try await member.sync(
                [
                    Self.sample("shaker-1", 14_000, hours: 9...10, model: "iPhone"),
                    Self.sample("shaker-2", 14_000, hours: 10...11, model: "iPhone"),
                    Self.sample("walk", 5_000, day: "2025-10-30"),
                ], attested: true)
            let challenge = try await member.challenge(verified)
            #expect(challenge["progress"] as? Double == 5_000)
            let excluded = try #require(challenge["excluded"] as? [String: Any])
            #expect(excluded["implausible"] as? Int == 2)
            let days = excluded["implausibleDays"] as? [[String: String]]
            #expect(days == [["date": "2025-10-28", "reason": "more than 26000 steps in 2 hours"]])
            #expect(try await HTTP.leaderboard(member.app, member.token, verified).first?["verified"] as? Bool == false)
            #expect(try await HTTP.progress(member.app, member.token, open) == 33_000)
            #expect(try await HTTP.leaderboard(member.app, member.token, open).first?["verified"] as? Bool == false)
        }
    }

    @Test("steps with less than 25 cm of the same device's distance a step leave the day out, for distance too")
    func implausibleStride() async throws {
        try await Self.withMember { member in
            let steps = try await member.create(#","verified":true"#)
            let distance =
                try await HTTP.created(
                    member.app, member.token, HTTP.body(type: "distance", goal: 5_000, extra: #","verified":true"#)
                )["id"] as? String ?? ""
            try await member.sync(
                [
                    Self.sample("steps", 10_000, hours: 8...12),
                    Self.sample("distance", 1_000, hours: 8...12, type: "distance", unit: "m"),
                    Self.sample("honest-steps", 4_000, day: "2025-10-29"),
                    Self.sample("honest-distance", 3_000, day: "2025-10-29", type: "distance", unit: "m"),
                ], attested: true)
            let challenge = try await member.challenge(steps)
            #expect(challenge["progress"] as? Double == 4_000)
            let days = (challenge["excluded"] as? [String: Any])?["implausibleDays"] as? [[String: String]]
            #expect(days == [["date": "2025-10-28", "reason": "less than 25 cm of distance a step"]])
            #expect(try await HTTP.progress(member.app, member.token, distance) == 3_000)
            // More distance the same day makes the stride plausible again.
            try await member.sync(
                [Self.sample("distance", 7_000, hours: 8...12, type: "distance", unit: "m")], attested: true)
            #expect(try await HTTP.progress(member.app, member.token, steps) == 14_000)
        }
    }

    @Test(
        "the stride rule weighs a day's steps against that day's distance only, and a member's exclusions count the challenge's days once"
    )
    func strideOfTheSameDay() async throws {
        try await Self.withMember { member in
            let steps = try await member.create(#","verified":true"#)
            try await member.sync(
                [
                    Self.sample("steps", 10_000, hours: 8...12),
                    Self.sample("calories", 300, hours: 8...12, type: "calories", unit: "kcal"),
                    Self.sample("short-walk", 1_000, day: "2025-10-29"),
                    Self.sample("short-distance", 100, day: "2025-10-29", type: "distance", unit: "m"),
                ], attested: true)
            try await member.sync(
                [
                    Self.sample("typed-27th", 500, day: "2025-10-27", userEntered: true),
                    Self.sample("typed-28th", 500, hours: 13...14, userEntered: true),
                    Self.sample("typed-last", 500, day: "2025-11-03", userEntered: true),
                    Self.sample("typed-after", 500, day: "2025-11-04", userEntered: true),
                ], attested: true)
            let challenge = try await member.challenge(steps)
            #expect(challenge["progress"] as? Double == 11_000, "no distance on the 28th: nothing to weigh")
            let excluded = try #require(challenge["excluded"] as? [String: Any])
            #expect((excluded["implausibleDays"] as? [Any])?.isEmpty == true, "\(excluded)")
            // The 28th holds three types; the 27th and the 4th lie outside the challenge's days.
            #expect(excluded["userEntered"] as? Int == 2, "each of its days' typed-in samples once: \(excluded)")
        }
    }

    @Test(
        "a challenge that is not verified marks a member verified while every sample it counts came from an attested write"
    )
    func markWhereNotVerified() async throws {
        try await Self.withMember { member in
            let open = try await member.create("")
            let typedInCounts = try await member.create(#","includesUserEntered":true"#)
            func verified(_ challenge: String) async throws -> Bool? {
                try await HTTP.leaderboard(member.app, member.token, challenge).first?["verified"] as? Bool
            }
            try await member.sync([Self.sample("walk", 4_000)], attested: true)
            #expect(try await verified(open) == true)
            #expect(try await verified(typedInCounts) == true, "no typed-in sample to count")
            try await member.sync([Self.sample("typed", 1_500, hours: 13...14, userEntered: true)], attested: true)
            #expect(try await verified(open) == true, "a typed-in sample it does not count changes nothing")
            #expect(try await verified(typedInCounts) == false, "a typed-in sample it counts is no device's record")
            try await member.sync([Self.sample("run", 2_000, hours: 17...18, model: "iPhone")], attested: false)
            #expect(try await verified(open) == false)
        }
    }

    @Test("a write with an attestation that fails is refused, even where attestation is not required")
    func failedAttestationRefused() async throws {
        try await Self.withMember { member in
            let body = Data(Sync.batch([Self.sample("walk", 4_000)]).utf8)
            var headers = HTTPHeaders.json(bearer: member.token)
            for (name, value) in try await member.writer.headers(for: Data("another body".utf8)) {
                headers.replaceOrAdd(name: name, value: value)
            }
            let response = try await member.app.testing().sendRequest(
                .POST, "/api/v1/health/sync", headers: headers, body: ByteBuffer(data: body))
            #expect(response.status == .unauthorized)
            #expect(
                try await HealthSyncHTTPTests.totals(member.app, member.account, .steps, "2025-10-28", "2025-10-28")
                    .isEmpty)
        }
    }

    @Test(
        "a draft's verification is checked: sources only when verified, never with user-entered samples, known kinds",
        arguments: [
            (#","verifiedSources":["watch"]"#, "verifiedSources applies only when verified is true"),
            (#","verified":true,"includesUserEntered":true"#, "never counts samples a person typed in"),
            (#","verified":true,"verifiedSources":["ring"]"#, "verifiedSources[0]"),
            (#","verified":true,"verifiedSources":["watch","watch"]"#, "verifiedSources[1]"),
            (#","verified":true,"verifiedSources":[]"#, "verifiedSources"),
        ])
    func draftChecks(extra: String, message: String) async throws {
        try await Self.withMember { member in
            let response = try await HTTP.create(member.app, member.token, HTTP.body(extra: extra))
            #expect(response.status == .badRequest, "\(response.body.string)")
            #expect(response.body.string.contains(message), "\(response.body.string)")
        }
    }

    @Test(
        "M0044 counts the days synced before it as unattested, so no member is marked verified on their strength",
        arguments: TestDatabase.available)
    func upgrade(database: TestDatabase) async throws {
        try await Self.withMember(on: database) { member in
            let open = try await member.create("")
            try await member.sync(
                [Self.sample("walk", 4_000), Self.sample("typed", 500, hours: 13...14, userEntered: true)],
                attested: false)
            let migration = M0044_VerifyChallengeProgress()
            try await migration.revert(on: member.app.hale.database.fluent)
            try await migration.prepare(on: member.app.hale.database.fluent)
            let row = try #require(
                try await member.app.hale.database.sql.raw(
                    "SELECT samples_unattested, samples_user_entered FROM health_rollups"
                ).first())
            #expect(try row.decode(column: "samples_unattested", as: Int.self) == 1)
            #expect(try row.decode(column: "samples_user_entered", as: Int.self) == 1)
            try await member.app.hale.fitnessChallenges.recompute(open)
            #expect(try await HTTP.leaderboard(member.app, member.token, open).first?["verified"] as? Bool == false)
        }
    }

    @Test("recomputing a challenge rebuilds every member's progress and mark from the daily totals")
    func recompute() async throws {
        try await Self.withMember { member in
            let verified = try await member.create(#","verified":true"#)
            try await member.sync([Self.sample("walk", 4_000)], attested: true)
            try await member.app.hale.database.sql.raw(
                "UPDATE fitness_challenge_members SET progress = 0, verified = \(bind: false), excluded_samples = 9"
            ).run()
            #expect(try await HTTP.progress(member.app, member.token, verified) == 0)
            let left = try await Member.make(member.app, "left@example.com")
            #expect(try await HTTP.post(member.app, left.token, "/\(verified)/join").status == .ok)
            try await left.sync([Self.sample("left-walk", 3_000)], attested: true)
            #expect(try await HTTP.post(member.app, left.token, "/\(verified)/leave").status == .ok)
            try await member.app.hale.fitnessChallenges.recompute(verified)
            #expect(try await HTTP.progress(member.app, member.token, verified) == 4_000)
            #expect(try await HTTP.leaderboard(member.app, member.token, verified).first?["verified"] as? Bool == true)
            let kept = try await member.app.hale.database.sql.raw(
                "SELECT progress FROM fitness_challenge_members WHERE account_id = \(bind: left.account)"
            ).first(decodingColumn: "progress", as: Double.self)
            #expect(kept == 0, "a left membership's progress is not derived again")
            await #expect(throws: HaleError.self) { try await member.app.hale.fitnessChallenges.recompute("nope") }
        }
    }
}
