import Foundation
import SQLKit

/// `SigningKeyRepository` on SQL.
struct SQLSigningKeyRepository: SigningKeyRepository {
    let database: HaleDatabase

    func keys(createdAfter date: Date) async throws -> [SigningKeyRecord] {
        try await database.sql.select().column("*").from("signing_keys").where("created_at", .greaterThan, date)
            .orderBy("activates_at", .descending).orderBy("created_at", .descending)
            .all(decoding: SigningKeyRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func insert(_ key: SigningKeyRecord) async throws {
        try await database.sql.insert(into: "signing_keys").model(key, keyEncodingStrategy: .convertToSnakeCase).run()
    }
}
