import Fluent
import SQLKit

/// Health connections (seed 004's `health_connections`): one per account and provider, active from connection to
/// disconnection, with the permissions the person granted and the time of the last sync.
struct M0013_CreateHealthConnections: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("health_connections")
            .field("id", .uuid, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("provider", .string, .required)
            .field("permissions_granted", .string, .required)
            .field("connected_at", .datetime, .required)
            .field("last_sync_at", .datetime)
            .field("is_active", .bool, .required)
            .field("disconnected_at", .datetime)
            .unique(on: "account_id", "provider")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("health_connections").delete()
    }
}
