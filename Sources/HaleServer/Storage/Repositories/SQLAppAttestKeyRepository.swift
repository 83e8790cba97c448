import Foundation
import SQLKit

/// `AppAttestKeyRepository` on SQL.
struct SQLAppAttestKeyRepository: AppAttestKeyRepository {
    let database: HaleDatabase

    func insert(_ key: AppAttestKey, keepingNewest kept: Int) async throws -> Bool {
        do {
            try await database.writeTransaction { database in
                try await database.sql.insert(into: "app_attest_keys")
                    .model(key, keyEncodingStrategy: .convertToSnakeCase).run()
                try await database.sql.raw(
                    """
                    DELETE FROM app_attest_keys WHERE account_id = \(bind: key.accountId) AND id NOT IN (
                        SELECT id FROM app_attest_keys WHERE account_id = \(bind: key.accountId)
                        ORDER BY created_at DESC, id LIMIT \(bind: kept))
                    """
                ).run()
            }
            return true
        } catch  where HaleDatabase.isConstraintViolation(error) {
            return false
        }
    }

    func keys(of account: AccountID, limit: Int) async throws -> [AppAttestKey] {
        try await database.sql.select().column("*").from("app_attest_keys").where("account_id", .equal, account)
            .orderBy("created_at", .descending).limit(limit)
            .all(decoding: AppAttestKey.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func advance(_ key: UUID, from expected: Int64, to counter: Int64, at date: Date) async throws -> Bool {
        try await database.sql.update("app_attest_keys").set("counter", to: counter).set("last_used_at", to: date)
            .where("id", .equal, key).where("counter", .equal, expected)
            .returning("id").all().count == 1
    }
}
