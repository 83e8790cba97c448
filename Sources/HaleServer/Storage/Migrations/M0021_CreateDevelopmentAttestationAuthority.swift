import Fluent

/// The development App Attest CA of this installation (`appAttest.developmentMode`): one row, keyed `installation`,
/// created once by whichever instance starts first. Its root key is a PEM, as the access-token signing keys are.
struct M0021_CreateDevelopmentAttestationAuthority: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("development_attestation_authorities")
            .field("id", .string, .identifier(auto: false))
            .field("private_key_pem", .string, .required)
            .field("certificate_pem", .string, .required)
            .field("created_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("development_attestation_authorities").delete()
    }
}
