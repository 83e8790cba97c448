import Fluent

/// `sessions.attestation_key_id` and `attestation_key_thumbprint`: the App Attest key a session is bound to
/// (`tokens.bindToAttestation`), whose assertion each of its refreshes must carry, and the key's JWK thumbprint that
/// its access tokens name as `cnf.jkt`. Null for a bearer session.
struct M0042_BindSessionsToAttestation: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column per statement: SQLite adds one at a time.
        try await database.schema("sessions").field("attestation_key_id", .string).update()
        try await database.schema("sessions").field("attestation_key_thumbprint", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("sessions").deleteField("attestation_key_thumbprint").update()
        try await database.schema("sessions").deleteField("attestation_key_id").update()
    }
}
