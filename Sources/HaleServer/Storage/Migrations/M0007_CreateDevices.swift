import Fluent
import SQLKit

/// Devices (one app installation on one phone) and the hardware-backed keys they sign in with; passkeys learn the
/// device they were created on.
struct M0007_CreateDevices: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("devices")
            .field("id", .uuid, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("device_type", .string, .required)
            .field("fingerprint_hash", .string, .required)
            .field("fcm_token", .string)
            .field("apns_token", .string)
            .field("push_token_updated_at", .datetime)
            .field("failed_signature_count", .int64, .required)
            .field("locked_until", .datetime)
            .field("created_at", .datetime, .required)
            .field("last_used_at", .datetime)
            .field("last_ip_range", .string)
            .field("deactivated_at", .datetime)
            .create()
        try await database.schema("device_keys")
            .field("id", .uuid, .identifier(auto: false))
            .field("device_id", .uuid, .required, .references("devices", "id", onDelete: .cascade))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("public_key", .string, .required)
            .field("thumbprint", .string, .required)
            .field("key_type", .string, .required)
            .field("declared_algorithm", .string, .required)
            .field("signature_convention", .string, .required)
            .field("created_at", .datetime, .required)
            .field("last_used_at", .datetime)
            .field("revoked_at", .datetime)
            .unique(on: "thumbprint")
            .create()
        try await database.schema("passkey_credentials").field("device_id", .uuid).update()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "devices_account_id").on("devices").column("account_id").run()
        try await sql.create(index: "devices_fingerprint_hash").on("devices").column("fingerprint_hash").run()
        try await sql.create(index: "device_keys_device_id").on("device_keys").column("device_id").run()
        try await sql.create(index: "sessions_device_id").on("sessions").column("device_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("passkey_credentials").deleteField("device_id").update()
        try await database.schema("device_keys").delete()
        try await database.schema("devices").delete()
    }
}
