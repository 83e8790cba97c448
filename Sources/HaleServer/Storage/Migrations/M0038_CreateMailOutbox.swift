import Fluent
import SQLKit

/// The mail outbox: messages written with the events that cause them, claimed and delivered in the background as
/// the push outbox's are. A message keeps its kind and data, sealed, and is worded when sent; the data is cleared
/// once it is sent or given up, so a code lives here no longer than its delivery.
struct M0038_CreateMailOutbox: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("mail_outbox")
            .field("id", .uuid, .identifier(auto: false))
            .field("dedupe_key", .string, .required)
            // Empty for a notice to an address no account of the mail's concern owns.
            .field("account_id", .uuid, .references("accounts", "id", onDelete: .cascade))
            .field("recipient", .string, .required)
            .field("kind", .string, .required)
            .field("data", .string, .required)
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
        try await sql.create(index: "mail_outbox_status_next_attempt_at").on("mail_outbox")
            .column("status").column("next_attempt_at").run()
        try await sql.create(index: "mail_outbox_recipient_created_at").on("mail_outbox")
            .column("recipient").column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("mail_outbox").delete()
    }
}
