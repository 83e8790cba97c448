import Fluent

/// `provenance_keys`: the ES256 keys that sign provenance statements, their private keys sealed at rest. Apart from
/// the access-token keys, so that no rotation of those retires them: a statement must verify for as long as anyone
/// keeps it, so every provenance key stays published.
struct M0045_CreateProvenanceKeys: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("provenance_keys")
            .field("kid", .string, .identifier(auto: false))
            .field("private_key_sealed", .string, .required)
            .field("created_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("provenance_keys").delete()
    }
}
