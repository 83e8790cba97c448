import Fluent
import SQLKit

/// Apple Health exports uploaded to `POST /api/v1/health/imports`, imported in the background by whichever instance
/// claims them. The file itself is on disk (`health.imports.directory`), named by the import's id.
///
/// `records_committed` and `summary` move together, in the transaction that stores each batch of samples, so an
/// import resumed after a restart skips exactly the records already counted.
struct M0032_CreateHealthImports: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("health_imports")
            .field("id", .uuid, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("status", .string, .required)
            .field("bytes", .int64, .required)
            .field("time_zone", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .field("completed_at", .datetime)
            .field("claim_id", .uuid)
            .field("claimed_until", .datetime)
            .field("attempts", .int32, .required)
            .field("phase", .string)
            .field("records_read", .int64, .required)
            .field("fraction", .double, .required)
            .field("records_committed", .int64, .required)
            .field("summary", .string, .required)
            .field("error_code", .string)
            .field("error_message", .string)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "health_imports_account_created").on("health_imports")
            .column("account_id").column("created_at").run()
        try await sql.create(index: "health_imports_status").on("health_imports").column("status").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("health_imports").delete()
    }
}
