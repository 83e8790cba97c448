import Fluent

/// When a personal access token expires (null: never), and which social sign-in issued it (null: an operator or a
/// tool made it), so that only a recent sign-in's token counts as a fresh sign-in.
///
/// One column per statement: SQLite adds one column per `ALTER TABLE`.
struct M0023_AddPersonalAccessTokenExpiry: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("personal_access_tokens").field("expires_at", .datetime).update()
        try await database.schema("personal_access_tokens").field("sign_in_method", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("personal_access_tokens").deleteField("sign_in_method").update()
        try await database.schema("personal_access_tokens").deleteField("expires_at").update()
    }
}
