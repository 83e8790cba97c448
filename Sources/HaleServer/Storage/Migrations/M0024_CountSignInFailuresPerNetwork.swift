import Fluent
import SQLKit

/// Failed device-key signatures counted per device and client network, so that an attacker who knows a device's
/// fingerprint locks out only the network they fail from, never the device's owner elsewhere. The per-device count
/// and lock this replaces are dropped.
///
/// One column per statement: SQLite drops one column per `ALTER TABLE`.
struct M0024_CountSignInFailuresPerNetwork: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("device_sign_in_failures")
            .field("device_id", .uuid, .required, .references("devices", "id", onDelete: .cascade))
            .field("client_network", .string, .required)
            .field("failed_count", .int64, .required)
            .field("last_failed_at", .datetime, .required)
            .field("locked_until", .datetime)
            .compositeIdentifier(over: "device_id", "client_network")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "device_sign_in_failures_last_failed_at").on("device_sign_in_failures")
                .column("last_failed_at").run()
        }
        try await database.schema("devices").deleteField("locked_until").update()
        try await database.schema("devices").deleteField("failed_signature_count").update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("devices")
            .field("failed_signature_count", .int64, .required, .sql(.default(0))).update()
        try await database.schema("devices").field("locked_until", .datetime).update()
        try await database.schema("device_sign_in_failures").delete()
    }
}
