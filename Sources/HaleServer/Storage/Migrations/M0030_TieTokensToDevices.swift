import Fluent
import SQLKit

/// A personal access token that a sign-in issued (seed 003's social sign-in) belongs to the device that signed in,
/// so revoking the device revokes it: null for tokens an operator or a person made by hand.
struct M0030_TieTokensToDevices: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("personal_access_tokens").field("device_id", .uuid).update()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "personal_access_tokens_device_id").on("personal_access_tokens")
            .column("device_id").run()
    }

    func revert(on database: any Database) async throws {
        if let sql = database as? any SQLDatabase {
            try await sql.drop(index: "personal_access_tokens_device_id").run()
        }
        try await database.schema("personal_access_tokens").deleteField("device_id").update()
    }
}
