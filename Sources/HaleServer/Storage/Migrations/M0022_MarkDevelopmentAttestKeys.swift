import Fluent
import SQLKit

/// Whether an App Attest key was certified by the development CA (`appAttest.developmentMode`) rather than by
/// Apple's or the configured root, so that turning the mode off also ends the keys it let in.
struct M0022_MarkDevelopmentAttestKeys: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("app_attest_keys")
            .field("from_development_authority", .bool, .required, .sql(.default(false)))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("app_attest_keys").deleteField("from_development_authority").update()
    }
}
