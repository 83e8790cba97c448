import Foundation
import SQLKit

/// Stores the provenance keys.
protocol ProvenanceKeyRepository: Sendable {
    /// Every key, oldest first.
    func keys() async throws -> [ProvenanceKeyRecord]
    /// Stores a new key.
    func insert(_ key: ProvenanceKeyRecord) async throws
}

/// `ProvenanceKeyRepository` on SQL.
struct SQLProvenanceKeyRepository: ProvenanceKeyRepository {
    let database: HaleDatabase

    func keys() async throws -> [ProvenanceKeyRecord] {
        try await database.sql.select().column("*").from("provenance_keys").orderBy("created_at").orderBy("kid")
            .all(decoding: ProvenanceKeyRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func insert(_ key: ProvenanceKeyRecord) async throws {
        try await database.sql.insert(into: "provenance_keys").model(key, keyEncodingStrategy: .convertToSnakeCase)
            .run()
    }
}
