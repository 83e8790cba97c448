import Fluent
import SQLKit

/// Every single-use value the server hands out, stored as the hash of its value, with its binding and expiry.
struct M0004_CreateServerChallenges: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("server_challenges")
            .field("id", .uuid, .identifier(auto: false))
            .field("kind", .string, .required)
            .field("value_hash", .string, .required)
            .field("account_id", .uuid)
            .field("device_id", .uuid)
            .field("session_id", .uuid)
            .field("context", .string)
            .field("created_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .field("consumed_at", .datetime)
            .unique(on: "value_hash")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "server_challenges_expires_at").on("server_challenges").column("expires_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("server_challenges").delete()
    }
}
