import Fluent

/// Personal access tokens, `<id>|<secret>`, with only the secret's SHA-256 stored.
struct M0003_CreatePersonalAccessTokens: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("personal_access_tokens")
            .field("id", .int64, .identifier(auto: true))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("secret_hash", .string, .required)
            .field("created_at", .datetime, .required)
            .field("last_used_at", .datetime)
            .field("revoked_at", .datetime)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("personal_access_tokens").delete()
    }
}
