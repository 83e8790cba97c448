import Fluent

/// Sessions (refresh-token families) and the refresh tokens of each, stored only as SHA-256 hashes.
struct M0002_CreateSessions: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("sessions")
            .field("id", .uuid, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("device_id", .uuid)
            .field("sign_in_method", .string, .required)
            .field("remember_me", .bool, .required)
            .field("token_secret", .string, .required)
            .field("created_at", .datetime, .required)
            .field("last_used_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .field("revoked_at", .datetime)
            .field("revoke_reason", .string)
            .create()
        try await database.schema("refresh_tokens")
            .field("id", .uuid, .identifier(auto: false))
            .field("session_id", .uuid, .required, .references("sessions", "id", onDelete: .cascade))
            .field("token_hash", .string, .required)
            .field("created_at", .datetime, .required)
            .field("spent_at", .datetime)
            .field("spent_reason", .string)
            .unique(on: "token_hash")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("refresh_tokens").delete()
        try await database.schema("sessions").delete()
    }
}
