import Fluent
import SQLKit

/// Confirmation requests (seed 002's transaction signing) and the admin API keys the app's own backend creates them
/// with. Only each key's SHA-256 is stored. An answer's webhook to the backend is delivered from the confirmation's
/// own row: `webhook_status` is `pending`, `delivered` or `dead`, or null when no webhook is configured.
struct M0020_CreateConfirmations: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("admin_api_keys")
            .field("id", .int64, .identifier(auto: true))
            .field("name", .string, .required)
            .field("secret_hash", .string, .required)
            .field("created_at", .datetime, .required)
            .field("last_used_at", .datetime)
            .field("revoked_at", .datetime)
            .create()
        try await database.schema("confirmations")
            .field("id", .uuid, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("action_type", .string, .required)
            .field("action_payload", .string, .required)
            .field("created_by_key_id", .int64, .required)
            .field("created_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .field("decision", .string)
            .field("answered_at", .datetime)
            .field("answered_by_device_id", .uuid)
            .field("signature", .string)
            .field("webhook_status", .string)
            .field("webhook_attempts", .int64, .required, .sql(.default(0)))
            .field("webhook_next_attempt_at", .datetime)
            .field("webhook_claim_id", .uuid)
            .field("webhook_claimed_until", .datetime)
            .field("webhook_last_error", .string)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "confirmations_account_created").on("confirmations")
            .column("account_id").column("created_at").run()
        try await sql.create(index: "confirmations_webhook_due").on("confirmations")
            .column("webhook_status").column("webhook_next_attempt_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("confirmations").delete()
        try await database.schema("admin_api_keys").delete()
    }
}
