import Fluent

/// When a passkey last showed a sign of a cloned authenticator, and which (`CloneSignal`): null while none has.
///
/// One column per statement: SQLite adds one column per `ALTER TABLE`.
struct M0026_MarkSuspectedClones: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("passkey_credentials").field("suspected_clone_at", .datetime).update()
        try await database.schema("passkey_credentials").field("suspected_clone_reason", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("passkey_credentials").deleteField("suspected_clone_reason").update()
        try await database.schema("passkey_credentials").deleteField("suspected_clone_at").update()
    }
}
