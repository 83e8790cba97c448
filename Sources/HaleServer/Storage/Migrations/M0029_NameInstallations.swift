import Fluent
import SQLKit

/// A device learns the installation it is, so that every sign-in's session belongs to one: the SHA-256 of the
/// installation id an app sends (`X-Installation-Id`), null for devices registered before or without one.
struct M0029_NameInstallations: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("devices").field("installation_hash", .string).update()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "devices_account_installation").on("devices")
            .column("account_id").column("installation_hash").run()
    }

    func revert(on database: any Database) async throws {
        if let sql = database as? any SQLDatabase {
            try await sql.drop(index: "devices_account_installation").run()
        }
        try await database.schema("devices").deleteField("installation_hash").update()
    }
}
