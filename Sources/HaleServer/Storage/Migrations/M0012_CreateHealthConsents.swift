import Fluent
import SQLKit

/// Health-data consent (seeds 000 and 004): one row per account, platform and permission, with the time it was
/// granted and, once revoked, the time of revocation. A grant after a revocation clears it.
struct M0012_CreateHealthConsents: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("health_consents")
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("platform", .string, .required)
            .field("permission", .string, .required)
            .field("granted_at", .datetime, .required)
            .field("revoked_at", .datetime)
            .unique(on: "account_id", "platform", "permission")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("health_consents").delete()
    }
}
