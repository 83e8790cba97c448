import Fluent
import SQLKit

/// Passkeys: each account's WebAuthn user handle, and the credentials registered to it.
struct M0006_CreatePasskeys: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("passkey_users")
            .field("account_id", .uuid, .identifier(auto: false), .references("accounts", "id", onDelete: .cascade))
            .field("user_handle", .string, .required)
            .unique(on: "user_handle")
            .create()
        try await database.schema("passkey_credentials")
            .field("id", .uuid, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("credential_id", .string, .required)
            .field("public_key", .string, .required)
            .field("sign_count", .int64, .required)
            .field("aaguid", .string, .required)
            .field("attestation_format", .string, .required)
            .field("transports", .string, .required)
            .field("backup_eligible", .bool, .required)
            .field("backup_state", .bool, .required)
            .field("name", .string, .required)
            .field("platform", .string)
            .field("os_version", .string)
            .field("device_name", .string)
            .field("created_at", .datetime, .required)
            .field("last_used_at", .datetime)
            .unique(on: "credential_id")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "passkey_credentials_account_id").on("passkey_credentials").column("account_id")
            .run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("passkey_credentials").delete()
        try await database.schema("passkey_users").delete()
    }
}
