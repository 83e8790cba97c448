import Fluent
import SQLKit

/// The ES256 keys that sign access tokens. A key signs from `activates_at` until a newer key activates, and
/// verifies from its creation until its last token expires.
struct M0005_CreateSigningKeys: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("signing_keys")
            .field("kid", .string, .identifier(auto: false))
            .field("private_key_pem", .string, .required)
            .field("created_at", .datetime, .required)
            .field("activates_at", .datetime, .required)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "sessions_account_id").on("sessions").column("account_id").run()
        try await sql.create(index: "refresh_tokens_session_id").on("refresh_tokens").column("session_id").run()
        try await sql.create(index: "pat_account_id").on("personal_access_tokens").column("account_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("signing_keys").delete()
    }
}
