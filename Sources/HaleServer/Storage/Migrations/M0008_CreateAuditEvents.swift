import Fluent
import SQLKit

/// The audit trail: append-only security events, each chained to the one before by a hash.
struct M0008_CreateAuditEvents: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("audit_events")
            .field("sequence", .int64, .identifier(auto: false))
            .field("account_id", .uuid, .required)
            .field("event_type", .string, .required)
            .field("device_id", .uuid)
            .field("session_id", .uuid)
            .field("ip_range", .string)
            .field("details", .string, .required)
            .field("created_at", .datetime, .required)
            .field("previous_hash", .string, .required)
            .field("hash", .string, .required)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "audit_events_account_id").on("audit_events").column("account_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("audit_events").delete()
    }
}
