import Fluent
import SQLKit

/// App Attest keys (seed 001): an iOS app attests its key once, bound to the account and, when known, the device;
/// its assertions then sign health submissions, each with a higher counter.
struct M0011_CreateAppAttestKeys: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("app_attest_keys")
            .field("id", .uuid, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("device_id", .uuid)
            .field("key_id", .string, .required)
            .field("public_key", .string, .required)
            .field("app_id", .string, .required)
            .field("environment", .string, .required)
            .field("counter", .int64, .required)
            .field("receipt", .string, .required)
            .field("created_at", .datetime, .required)
            .field("last_used_at", .datetime)
            .unique(on: "key_id")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "app_attest_keys_account_id").on("app_attest_keys").column("account_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("app_attest_keys").delete()
    }
}
