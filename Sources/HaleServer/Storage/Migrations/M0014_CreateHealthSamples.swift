import Fluent
import SQLKit

/// Synced health samples (seeds 000 and 004), their daily rollups, and the log of each sync.
///
/// A sample's identity is (account, provider, platform id): a HealthKit UUID or a Health Connect record id.
/// `dedup_hash` is seed 004's SHA-256 of user, sample id, type, value, start and end, the check for clients that
/// send no id. Rollups are per account, local day and type, with and without user-entered samples.
struct M0014_CreateHealthSamples: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("health_samples")
            .field("id", .uuid, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("provider", .string, .required)
            .field("platform_id", .string, .required)
            .field("type", .string, .required)
            .field("value", .double, .required)
            .field("start_at", .datetime, .required)
            .field("end_at", .datetime, .required)
            .field("utc_offset_seconds", .int32, .required)
            .field("source_bundle", .string)
            .field("device_model", .string)
            .field("device_type", .string)
            .field("user_entered", .bool, .required)
            .field("version", .int64)
            .field("dedup_hash", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "account_id", "provider", "platform_id")
            .create()
        try await database.schema("health_rollups")
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("day", .int64, .required)
            .field("type", .string, .required)
            .field("value", .double, .required)
            .field("value_excluding_user_entered", .double, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "account_id", "day", "type")
            .create()
        try await database.schema("health_sync_logs")
            .field("id", .uuid, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("provider", .string, .required)
            .field("batch_id", .string)
            .field("sync_type", .string, .required)
            .field("lookback_days", .int32, .required)
            .field("started_at", .datetime, .required)
            .field("completed_at", .datetime)
            .field("status", .string, .required)
            .field("records_processed", .int32, .required)
            .field("records_inserted", .int32, .required)
            .field("records_updated", .int32, .required)
            .field("records_deduplicated", .int32, .required)
            .field("records_deleted", .int32, .required)
            .field("records_rejected", .int32, .required)
            .field("error_message", .string)
            .unique(on: "account_id", "batch_id")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "health_samples_account_type_start").on("health_samples")
            .column("account_id").column("type").column("start_at").run()
        try await sql.create(index: "health_samples_account_hash").on("health_samples")
            .column("account_id").column("dedup_hash").run()
        try await sql.create(index: "health_sync_logs_account_started").on("health_sync_logs")
            .column("account_id").column("started_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("health_sync_logs").delete()
        try await database.schema("health_rollups").delete()
        try await database.schema("health_samples").delete()
    }
}
