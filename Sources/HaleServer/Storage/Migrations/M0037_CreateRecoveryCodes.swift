import Fluent

/// `recovery_codes`: an account's single-use recovery codes, each stored only as its SHA-256 (a code has 80 bits, so
/// the hash is looked up directly, as a refresh token's is); `used_at` is set once, by the one use that wins.
struct M0037_CreateRecoveryCodes: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("recovery_codes")
            .field("code_hash", .string, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .field("used_at", .datetime)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("recovery_codes").delete()
    }
}
