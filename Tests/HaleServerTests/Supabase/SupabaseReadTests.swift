import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Seed 004's reads at `/rest/v1`, as supabase-js sends them: the publishable key, the person's access token, and
/// only the person's rows.
@Suite("HTTP: the Supabase-compatible reads (seed 004)")
struct SupabaseReadTests {
    static let key = "sb_publishable_test-key-0123456789"
    static let settings = ["supabase.publishableKeys": key]

    static func get(_ app: Application, _ path: String, bearer: String?, key: String? = key, prefer: String? = nil)
        async throws -> TestingHTTPResponse
    {
        var headers = HTTPHeaders()
        if let bearer { headers.add(name: .authorization, value: "Bearer \(bearer)") }
        if let key { headers.add(name: "apiKey", value: key) }
        if let prefer { headers.add(name: "Prefer", value: prefer) }
        return try await app.testing().sendRequest(.GET, path, headers: headers)
    }

    static func rows(_ response: TestingHTTPResponse) throws -> [[String: Any]] {
        #expect(response.status == .ok, "\(response.body.string)")
        return try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]] ?? []
    }

    /// An account with a completed sync and a sync refused for consent, and its token.
    static func accountWithLogs(_ app: Application, email: String) async throws -> (AccountID, String) {
        let (account, token) = try await makeAccount(app, email: email)
        try await HealthSyncHTTPTests.grant(app, account.id, "apple", ["steps"])
        let steps =
            #"{"id":"s1","type":"steps","value":1200,"unit":"count","startDate":"2025-10-28T09:00:00Z","#
            + #""endDate":"2025-10-28T10:00:00Z"}"#
        #expect(try await Seed004DetailTests.sync(app, token, steps).status == .ok)
        let calories =
            #"{"id":"c1","type":"calories","value":1,"unit":"kcal","startDate":"2025-10-28T09:00:00Z","#
            + #""endDate":"2025-10-28T10:00:00Z"}"#
        #expect(try await Seed004DetailTests.sync(app, token, calories).status == .forbidden)
        return (account.id, token)
    }

    @Test(
        "the seed's failed-logs query reads only the signed-in account's rows, counted and ranged",
        arguments: TestDatabase.available)
    func failedLogs(database: TestDatabase) async throws {
        try await withHale(on: database, clock: HaleClock { HealthSyncHTTPTests.now }, settings: Self.settings) {
            app in
            let (ana, anaToken) = try await Self.accountWithLogs(app, email: "ana@example.com")
            let (bo, _) = try await Self.accountWithLogs(app, email: "bo@example.com")
            let failed = try Self.rows(
                try await Self.get(
                    app, "/rest/v1/health_sync_logs?select=%2A&status=eq.failed&order=started_at.desc&limit=5",
                    bearer: anaToken))
            #expect(failed.count == 1)
            let row = try #require(failed.first)
            #expect(row["user_id"] as? String == ana.description)
            #expect(row["status"] as? String == "failed")
            #expect((row["error_message"] as? String)?.contains("No health permissions") == true)
            #expect(Set(row.keys).isSuperset(of: ["id", "provider", "records_inserted"]))

            let counted = try await Self.get(
                app, "/rest/v1/health_sync_logs?select=id,status&order=started_at.asc&offset=0&limit=1",
                bearer: anaToken, prefer: "count=exact")
            #expect(try Self.rows(counted).map { Set($0.keys) } == [["id", "status"]])
            #expect(counted.headers.first(name: "Content-Range") == "0-0/2")

            let theirs = try Self.rows(
                try await Self.get(app, "/rest/v1/health_sync_logs?user_id=eq.\(bo)", bearer: anaToken))
            #expect(theirs.isEmpty, "another account's rows are never read")
            let inList = try Self.rows(
                try await Self.get(
                    app, "/rest/v1/health_sync_logs?status=in.(failed,partial)&completed_at=not.is.null",
                    bearer: anaToken))
            #expect(inList.count == 1)
        }
    }

    @Test("health_connections: the schema's columns, permissions as an array, filtered by is_active")
    func connections() async throws {
        try await withHale(settings: Self.settings) { app in
            let (account, token) = try await makeAccount(app)
            _ = try await HealthConnectionHTTPTests.connect(
                app, token, #"{"provider":"healthkit","permissions":["steps","activeMinutes"]}"#)
            let rows = try Self.rows(
                try await Self.get(app, "/rest/v1/health_connections?is_active=eq.true&select=*", bearer: token))
            #expect(rows.count == 1)
            #expect(rows.first?["permissions_granted"] as? [String] == ["steps", "activeMinutes"])
            #expect(rows.first?["user_id"] as? String == account.id.description)
            #expect(rows.first?["last_sync_at"] is NSNull)
            #expect((rows.first?["connected_at"] as? String)?.hasSuffix("+00:00") == true)
        }
    }

    @Test(
        "refusals in PostgREST's and Supabase's shapes",
        arguments: [
            ("/rest/v1/health_sync_logs", nil as String?, "401", 401, "No API key found in request"),
            ("/rest/v1/health_sync_logs", "wrong", "401", 401, "Invalid API key"),
            ("/rest/v1/challenges", SupabaseReadTests.key, "PGRST205", 404, "public.challenges"),
            ("/rest/v1/health_sync_logs?nope=eq.1", SupabaseReadTests.key, "42703", 400, "nope does not exist"),
            ("/rest/v1/health_sync_logs?id=eq.12", SupabaseReadTests.key, "22P02", 400, "type uuid"),
            ("/rest/v1/health_sync_logs?status=like.f*", SupabaseReadTests.key, "PGRST100", 400, "like.f*"),
            ("/rest/v1/rpc/nope", SupabaseReadTests.key, "PGRST202", 404, "public.nope"),
            ("/rest/v1/a/b/c", SupabaseReadTests.key, "PGRST205", 404, "/rest/v1/a/b/c"),
        ])
    func refusals(path: String, key: String?, code: String, status: Int, words: String) async throws {
        try await withHale(settings: Self.settings) { app in
            let (_, token) = try await makeAccount(app)
            let response = try await Self.get(app, path, bearer: token, key: key)
            let body = try response.json()
            #expect(Int(response.status.code) == status, "\(response.body.string)")
            #expect(body["code"] as? String == code)
            #expect((body["message"] as? String)?.contains(words) == true, "\(response.body.string)")
            #expect(Set(body.keys) == ["code", "details", "hint", "message"])
        }
    }

    @Test("without the person's token, or with a bad one, PostgREST's JWT refusals")
    func tokens() async throws {
        try await withHale(settings: Self.settings) { app in
            let missing = try await Self.get(app, "/rest/v1/health_sync_logs", bearer: nil)
            #expect(missing.status == .unauthorized)
            #expect(try missing.json()["code"] as? String == "PGRST302")
            let bad = try await Self.get(app, "/rest/v1/health_sync_logs", bearer: "not-a-token")
            #expect(bad.status == .unauthorized)
            #expect(try bad.json()["code"] as? String == "PGRST301")
        }
    }
}
