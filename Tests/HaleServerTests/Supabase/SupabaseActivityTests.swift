import Crypto
import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Seed 004's activities: `activity_logs` rows with the seed's SHA-256 in `source_external_id`, deduplicated as its
/// unique constraint says, and `log_health_activity`, which moves challenge progress with them.
@Suite("HTTP: activity_logs and log_health_activity (seed 004)")
struct SupabaseActivityTests {
    /// The seed's `generateActivityHash`: SHA-256 of `userId:sampleId:type:value:startDate:endDate`, in hex.
    static func hash(_ user: AccountID, _ sample: String, _ type: String, _ value: String, _ start: String) -> String {
        let text = "\(user):\(sample):\(type):\(value):\(start):\(start)"
        return SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func activity(_ account: AccountID, sample: String, steps: Int, at time: String) -> String {
        #"{"user_id":"\#(account)","activity_type":"steps","value":\#(steps),"recorded_at":"\#(time)","#
            + #""source":"healthkit","source_external_id":"\#(hash(account, sample, "steps", "\(steps)", time))"}"#
    }

    @Test(
        "inserted with ignoreDuplicates, stored once, counted in the day and the challenge, read back",
        arguments: TestDatabase.available)
    func insertAndDeduplicate(database: TestDatabase) async throws {
        try await withHale(
            on: database, clock: HaleClock { HealthSyncHTTPTests.now }, settings: SupabaseReadTests.settings
        ) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps"])
            let challenge = try await app.hale.fitnessChallenges.create(
                FitnessChallengeDraft(
                    name: "October", type: .steps, goal: 10_000, startDate: LocalDate("2025-10-01")!,
                    endDate: LocalDate("2025-10-31")!, visibility: nil, includesUserEntered: nil), by: account.id)
            let rows =
                "[" + Self.activity(account.id, sample: "a", steps: 1200, at: "2025-10-28T09:00:00.000Z") + ","
                + Self.activity(account.id, sample: "b", steps: 800, at: "2025-10-28T18:00:00.000Z") + "]"
            let path = "/rest/v1/activity_logs?on_conflict=user_id%2Csource%2Csource_external_id"
            let prefer = "return=representation,resolution=ignore-duplicates"
            let first = try await SupabaseWriteTests.send(app, .POST, path, bearer: token, body: rows, prefer: prefer)
            #expect(first.status == .created, "\(first.body.string)")
            let again = try await SupabaseWriteTests.send(app, .POST, path, bearer: token, body: rows, prefer: prefer)
            #expect(again.status == .created, "a duplicate is ignored, silently")
            #expect(
                try await HealthSyncHTTPTests.totals(app, account.id, .steps, "2025-10-28", "2025-10-28")
                    == ["2025-10-28": 2000])
            let progress = try await app.hale.fitnessChallenges.challenge(
                challenge.challenge.id.description, for: account.id
            ).progress
            #expect(progress == 2000)

            let read = try SupabaseReadTests.rows(
                try await SupabaseReadTests.get(
                    app, "/rest/v1/activity_logs?select=activity_type,value,unit,source&order=recorded_at.asc",
                    bearer: token))
            #expect(read.map { $0["value"] as? Int } == [1200, 800])
            #expect(read.first?["unit"] as? String == "count" && read.first?["source"] as? String == "healthkit")
        }
    }

    @Test("a 30-day initial sync's 2,000 activities arrive in one upsert")
    func initialSync() async throws {
        try await withHale(clock: HaleClock { HealthSyncHTTPTests.now }, settings: SupabaseReadTests.settings) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps"])
            let start = Date(timeIntervalSince1970: 1_759_150_800)  // 2025-09-29T13:00:00Z
            let rows = (0..<2_000).map { index in
                let time = ISO8601DateFormatter().string(from: start.addingTimeInterval(Double(index) * 1_260))
                return Self.activity(account.id, sample: "s\(index)", steps: 10, at: time)
            }
            let response = try await SupabaseWriteTests.send(
                app, .POST, "/rest/v1/activity_logs", bearer: token, body: "[" + rows.joined(separator: ",") + "]",
                prefer: "resolution=ignore-duplicates")
            #expect(response.status == .created, "\(response.body.string.prefix(300))")
            let counted = try await SupabaseReadTests.get(
                app, "/rest/v1/activity_logs?select=id&limit=1", bearer: token, prefer: "count=exact")
            #expect(counted.headers.first(name: "Content-Range") == "0-0/2000")
        }
    }

    @Test("log_health_activity logs one activity and answers its row; a second call changes nothing")
    func logHealthActivity() async throws {
        try await withHale(clock: HaleClock { HealthSyncHTTPTests.now }, settings: SupabaseReadTests.settings) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["active_minutes"])
            let body =
                #"{"p_activity_type":"activeMinutes","p_value":30,"p_recorded_at":"2025-10-28T09:00:00Z","#
                + #""p_ended_at":"2025-10-28T09:30:00Z","p_source_external_id":"h-1","p_challenge_id":null}"#
            for _ in 0..<2 {
                let logged = try await SupabaseWriteTests.send(
                    app, .POST, "/rest/v1/rpc/log_health_activity", bearer: token, body: body)
                #expect(logged.status == .ok, "\(logged.body.string)")
                let row = try logged.json()
                #expect(row["activity_type"] as? String == "active_minutes")
                #expect(row["value"] as? Int == 1800 && row["unit"] as? String == "s", "30 minutes, kept in seconds")
            }
            #expect(
                try await HealthSyncHTTPTests.totals(app, account.id, .activeMinutes, "2025-10-28", "2025-10-28")
                    == ["2025-10-28": 1800])
        }
    }

    @Test(
        "refused whole: another account's row, no consent, an implausible value, a missing hash, a manual source",
        arguments: [
            (
                #"{"user_id":"00000000-0000-4000-8000-000000000001","activity_type":"steps","value":1,"recorded_at":"2025-10-28T09:00:00Z","source_external_id":"x"}"#,
                403, "42501"
            ),
            (
                #"{"activity_type":"calories","value":1,"recorded_at":"2025-10-28T09:00:00Z","source_external_id":"x"}"#,
                403, "CONSENT_REQUIRED"
            ),
            (
                #"{"activity_type":"steps","value":500000,"recorded_at":"2025-10-28T09:00:00Z","source_external_id":"x"}"#,
                400, "23514"
            ),
            (#"{"activity_type":"steps","value":1,"recorded_at":"2025-10-28T09:00:00Z"}"#, 400, "23502"),
            (
                #"{"activity_type":"steps","value":1,"recorded_at":"2025-10-28T09:00:00Z","source_external_id":"x","source":"manual"}"#,
                400, "23514"
            ),
            (
                #"{"activity_type":"steps","value":"1","recorded_at":"2025-10-28T09:00:00Z","source_external_id":"x"}"#,
                400, "22P02"
            ),
            (
                #"{"activity_type":"steps","value":1,"recorded_at":"2025-10-28T09:00:00Z","source_external_id":"x","mood":"good"}"#,
                400, "PGRST204"
            ),
        ])
    func refusals(body: String, status: Int, code: String) async throws {
        try await withHale(clock: HaleClock { HealthSyncHTTPTests.now }, settings: SupabaseReadTests.settings) { app in
            let (account, token) = try await makeAccount(app)
            try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps"])
            let response = try await SupabaseWriteTests.send(
                app, .POST, "/rest/v1/activity_logs", bearer: token, body: body)
            #expect(Int(response.status.code) == status, "\(response.body.string)")
            #expect(try response.json()["code"] as? String == code, "\(response.body.string)")
            #expect(
                try await HealthSyncHTTPTests.totals(app, account.id, .steps, "2025-10-27", "2025-10-29").isEmpty)
        }
    }
}
