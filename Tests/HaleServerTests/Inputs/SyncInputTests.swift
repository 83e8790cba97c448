import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Sample sync stores no control character: a sample's text fields are refused one by one with their own code, the
/// batch's own fields with a 400.
@Suite("HTTP: sync text fields")
struct SyncInputTests {
    typealias Sync = HealthSampleSyncTests

    static func rejected(_ body: [String: Any]) -> [String] {
        (body["rejected"] as? [[String: Any]] ?? []).map { "\($0["code"] ?? "?"): \($0["message"] ?? "?")" }
    }

    static func with(_ member: String) -> String {
        Sync.sample("a", 10).replacingOccurrences(of: "}", with: ",\(member)}")
    }

    @Test(
        "a control character in a sample's source is FIELD_INVALID, and the rest of the batch is stored",
        arguments: [
            (#""sourceBundle":"com.apple.health\n""#, "sourceBundle"),
            (#""deviceModel":"Watch6,2\u001b[31m""#, "deviceModel"),
            (#""deviceType":"TYPE_WATCH\u007f""#, "deviceType"),
        ])
    func sourceField(member: String, field: String) async throws {
        try await Sync.withAccount { app, _, token in
            let body = try await Sync.sync(app, token, Sync.batch([Self.with(member), Sync.sample("b", 20)]))
            #expect(
                Self.rejected(body) == [
                    "FIELD_INVALID: \(field) must hold no control characters (U+0000-U+001F, U+007F)."
                ])
            #expect(Sync.counts(body) == [1, 0, 0, 0, 1])
        }
    }

    @Test("a sample id with a control character is INVALID_ID", arguments: TestDatabase.available)
    func sampleID(database: TestDatabase) async throws {
        try await Sync.withAccount(on: database) { app, _, token in
            let body = try await Sync.sync(app, token, Sync.batch([Sync.sample(#"id\r\nforged"#, 10)]))
            #expect(Self.rejected(body) == ["INVALID_ID: A sample id is 1 to 255 bytes with no control characters."])
            #expect(Sync.counts(body) == [0, 0, 0, 0, 1])
        }
    }

    @Test("a batchId with a control character is a 400 naming its limit", arguments: TestDatabase.available)
    func batchID(database: TestDatabase) async throws {
        try await Sync.withAccount(on: database) { app, _, token in
            let response = try await HealthSyncHTTPTests.post(
                app, "/api/v1/health/sync", token, Sync.batch([Sync.sample("a", 10)], extra: #","batchId":"b\t1""#))
            #expect(response.status == .badRequest)
            #expect(
                try response.coreError().error.message == "batchId must be 1 to 128 bytes with no control characters.")
            let logs = try await app.hale.database.sql.raw("SELECT id FROM health_sync_logs").all()
            #expect(logs.isEmpty)
        }
    }

    @Test("a deletion with a control character is a 400 naming its place and limit")
    func deletion() async throws {
        try await Sync.withAccount { app, _, token in
            let response = try await HealthSyncHTTPTests.post(
                app, "/api/v1/health/sync", token, Sync.batch([], deletions: ["ok", #"x\u0001"#]))
            #expect(response.status == .badRequest)
            #expect(
                try response.coreError().error.message
                    == "deletions[1] must be a sample id of 1 to 255 bytes with no control characters")
        }
    }
}
