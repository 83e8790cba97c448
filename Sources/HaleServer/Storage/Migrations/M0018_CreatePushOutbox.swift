import Fluent
import SQLKit

/// The push outbox: messages written with the events that cause them, claimed and delivered in the background.
struct M0018_CreatePushOutbox: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("push_outbox")
            .field("id", .uuid, .identifier(auto: false))
            .field("dedupe_key", .string, .required)
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            // No foreign key: a device deleted between reading an alert's recipients and writing its messages
            // must not roll back the security change the alert is about. Delivery skips a device that is gone, and
            // deleting a device deletes its messages.
            .field("device_id", .uuid, .required)
            .field("gateway", .string, .required)
            .field("kind", .string, .required)
            .field("data", .string, .required)
            .field("collapse_id", .string)
            .field("status", .string, .required)
            .field("attempts", .int64, .required)
            .field("next_attempt_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .field("claim_id", .uuid)
            .field("claimed_until", .datetime)
            .field("last_error", .string)
            .field("created_at", .datetime, .required)
            .field("finished_at", .datetime)
            .unique(on: "dedupe_key")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "push_outbox_status_next_attempt_at").on("push_outbox")
            .column("status").column("next_attempt_at").run()
        try await sql.create(index: "push_outbox_device_id").on("push_outbox").column("device_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("push_outbox").delete()
    }
}
