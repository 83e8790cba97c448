import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Seed 004's `connect()` and `disconnect()` through `/rest/v1/health_connections`, and its
/// `get_challenges_for_health_sync()`.
@Suite("HTTP: the Supabase-compatible writes and RPC (seed 004)")
struct SupabaseWriteTests {
    static func send(
        _ app: Application, _ method: HTTPMethod, _ path: String, bearer: String, body: String,
        prefer: String = "return=representation"
    ) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders.json(bearer: bearer)
        headers.add(name: "apikey", value: SupabaseReadTests.key)
        headers.add(name: "Prefer", value: prefer)
        return try await app.testing().sendRequest(method, path, headers: headers, body: .json(body))
    }

    static let connect =
        #"{"provider":"healthkit","permissions_granted":["steps","activeMinutes"],"is_active":true,"#
        + #""connected_at":"2025-10-29T12:00:00.000Z"}"#

    @Test(
        "connect() upserts and grants consent; disconnect() PATCHes is_active; the account's rows only",
        arguments: TestDatabase.available)
    func connectAndDisconnect(database: TestDatabase) async throws {
        try await withHale(on: database, settings: SupabaseReadTests.settings) { app in
            let (account, token) = try await makeAccount(app)
            let upsert = "/rest/v1/health_connections?on_conflict=user_id%2Cprovider"
            let created = try await Self.send(
                app, .POST, upsert, bearer: token, body: Self.connect,
                prefer: "return=representation,resolution=merge-duplicates")
            #expect(created.status == .created, "\(created.body.string)")
            let rows =
                try JSONSerialization.jsonObject(with: Data(created.body.readableBytesView)) as? [[String: Any]] ?? []
            #expect(rows.first?["permissions_granted"] as? [String] == ["steps", "activeMinutes"])
            #expect(
                Set(try await app.hale.healthConsents.current(of: account.id).map(\.permission))
                    == [.steps, .activeMinutes])

            let again = try await Self.send(app, .POST, upsert, bearer: token, body: Self.connect)
            #expect(again.status == .conflict, "a plain insert meets the existing row")
            #expect(try again.json()["code"] as? String == "23505")
            let merged = try await Self.send(
                app, .POST, upsert, bearer: token, body: Self.connect, prefer: "resolution=merge-duplicates")
            #expect(merged.status == .created)

            let gone = try await Self.send(
                app, .PATCH, "/rest/v1/health_connections?provider=eq.healthkit", bearer: token,
                body: #"{"is_active":false,"disconnected_at":"2025-10-29T13:00:00.000Z"}"#)
            #expect(gone.status == .ok, "\(gone.body.string)")
            #expect(try SupabaseReadTests.rows(gone).first?["is_active"] as? Bool == false)
            let sync = try await Seed004DetailTests.sync(
                app, token,
                #"{"id":"s1","type":"steps","value":10,"unit":"count","startDate":"2025-10-28T09:00:00Z","#
                    + #""endDate":"2025-10-28T10:00:00Z"}"#)
            #expect(try sync.coreError().error.code == "PROVIDER_DISCONNECTED", "no more syncs")
            let back = try await Self.send(
                app, .PATCH, "/rest/v1/health_connections?provider=eq.healthkit", bearer: token,
                body: #"{"is_active":true}"#, prefer: "return=minimal")
            #expect(back.status == .noContent)
            let listed = try await app.hale.healthConnections.list(of: account.id)
            #expect(listed.map(\.isActive) == [true] && listed.first?.permissionNames == ["steps", "activeMinutes"])
        }
    }

    @Test(
        "refused as PostgREST refuses: another user_id, an unknown column, a missing provider, another table",
        arguments: [
            (
                HTTPMethod.POST, "/rest/v1/health_connections",
                #"{"user_id":"00000000-0000-4000-8000-000000000001","provider":"healthkit","permissions_granted":["steps"]}"#,
                403, "42501"
            ),
            (
                .POST, "/rest/v1/health_connections",
                #"{"provider":"healthkit","permissions_granted":["steps"],"secret":1}"#, 400, "PGRST204"
            ),
            (.POST, "/rest/v1/health_connections", #"{"permissions_granted":["steps"]}"#, 400, "23502"),
            (.POST, "/rest/v1/health_connections", #"{"provider":"healthkit"}"#, 400, "23502"),
            (.POST, "/rest/v1/health_connections", "[1]", 400, "PGRST102"),
            (.POST, "/rest/v1/health_connections", "{", 400, "PGRST102"),
            (.POST, "/rest/v1/health_sync_logs", #"{"status":"completed"}"#, 403, "42501"),
            (.POST, "/rest/v1/profiles", "{}", 404, "PGRST205"),
            (.PATCH, "/rest/v1/health_connections?provider=eq.healthkit", #"{"provider":"googlefit"}"#, 403, "42501"),
            (.POST, "/rest/v1/rpc/log_everything", "{}", 404, "PGRST202"),
            (.POST, "/rest/v1/rpc/get_challenges_for_health_sync", #"{"p_user":1}"#, 404, "PGRST202"),
        ])
    func refusals(method: HTTPMethod, path: String, body: String, status: Int, code: String) async throws {
        try await withHale(settings: SupabaseReadTests.settings) { app in
            let (_, token) = try await makeAccount(app)
            _ = try await Self.send(app, .POST, "/rest/v1/health_connections", bearer: token, body: Self.connect)
            let response = try await Self.send(app, method, path, bearer: token, body: body)
            #expect(Int(response.status.code) == status, "\(response.body.string)")
            #expect(try response.json()["code"] as? String == code, "\(response.body.string)")
        }
    }

    @Test("get_challenges_for_health_sync: the person's challenges that still take progress, in the seed's columns")
    func challengesForHealthSync() async throws {
        try await withHale(clock: HaleClock { HealthSyncHTTPTests.now }, settings: SupabaseReadTests.settings) { app in
            let (account, token) = try await makeAccount(app)
            let (other, _) = try await makeAccount(app, email: "other@example.com")
            var draft = FitnessChallengeDraft(
                name: "October steps", type: .steps, goal: 100_000, startDate: LocalDate("2025-10-01")!,
                endDate: LocalDate("2025-10-31")!, visibility: nil, includesUserEntered: nil)
            let mine = try await app.hale.fitnessChallenges.create(draft, by: account.id)
            draft.name = "Someone else's"
            _ = try await app.hale.fitnessChallenges.create(draft, by: other.id)
            let response = try await Self.send(
                app, .POST, "/rest/v1/rpc/get_challenges_for_health_sync", bearer: token, body: "{}")
            let rows = try SupabaseReadTests.rows(response)
            #expect(rows.map { $0["challenge_id"] as? String } == [mine.challenge.id.description])
            #expect(rows.first?["challenge_type"] as? String == "steps")
            #expect(rows.first?["start_date"] as? String == "2025-10-01")
            #expect(rows.first?["end_date"] as? String == "2025-10-31")
        }
    }
}
