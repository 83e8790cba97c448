import Foundation
import SQLKit

/// `SigningKeyRepository` on SQL.
struct SQLSigningKeyRepository: SigningKeyRepository {
    let database: HaleDatabase

    func keys(retiredAfter date: Date) async throws -> [SigningKeyRecord] {
        try await database.sql.select().column("*").from("signing_keys")
            .where("retired_at", .is, SQLLiteral.null).orWhere("retired_at", .greaterThan, date)
            .orderBy("created_at", .descending)
            .all(decoding: SigningKeyRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func activate(_ key: SigningKeyRecord) async throws {
        try await database.writeTransaction { database in
            try await database.sql.update("signing_keys").set("retired_at", to: key.createdAt)
                .where("retired_at", .is, SQLLiteral.null).run()
            try await database.sql.insert(into: "signing_keys").model(key, keyEncodingStrategy: .convertToSnakeCase)
                .run()
        }
    }
}
