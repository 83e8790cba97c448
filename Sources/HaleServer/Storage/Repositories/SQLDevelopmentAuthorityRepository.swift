import SQLKit

/// `DevelopmentAuthorityRepository` on SQL.
struct SQLDevelopmentAuthorityRepository: DevelopmentAuthorityRepository {
    let database: HaleDatabase

    func insertIfAbsent(_ record: DevelopmentAuthorityRecord) async throws {
        try await database.sql.insert(into: "development_attestation_authorities")
            .model(record, keyEncodingStrategy: .convertToSnakeCase).ignoringConflicts(with: "id").run()
    }

    func authority() async throws -> DevelopmentAuthorityRecord? {
        try await database.sql.select().column("*").from("development_attestation_authorities")
            .where("id", .equal, DevelopmentAuthorityRecord.installation)
            .first(decoding: DevelopmentAuthorityRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }
}
