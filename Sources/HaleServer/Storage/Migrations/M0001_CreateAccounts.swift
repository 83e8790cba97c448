import Fluent

/// Accounts: one per person; every sign-in method attaches to one. `email` is verified and unique, so it can link
/// sign-in methods; `unverified_email` is what a user typed, kept for contact only and never used to link.
struct M0001_CreateAccounts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("accounts")
            .field("id", .uuid, .identifier(auto: false))
            .field("email", .string)
            .field("unverified_email", .string)
            .field("role", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "email")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("accounts").delete()
    }
}
