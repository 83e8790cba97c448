import Foundation
import SQLKit

/// Stores admin API keys.
protocol AdminAPIKeyRepository: Sendable {
    /// Stores a new key; returns its identifier.
    func create(_ key: AdminAPIKeyRecord) async throws -> Int64
    /// The key with this identifier.
    func find(_ id: Int64) async throws -> AdminAPIKeyRecord?
    /// Every key, revoked ones included, in order of creation.
    func all() async throws -> [AdminAPIKeyRecord]
    /// Records a use.
    func touch(_ id: Int64, at date: Date) async throws
    /// Revokes the key; false when it was revoked already or does not exist.
    func revoke(_ id: Int64, at date: Date) async throws -> Bool
}

/// `AdminAPIKeyRepository` on SQL.
struct SQLAdminAPIKeyRepository: AdminAPIKeyRepository {
    let database: HaleDatabase

    func create(_ key: AdminAPIKeyRecord) async throws -> Int64 {
        let row = try await database.sql.insert(into: "admin_api_keys")
            .model(key, keyEncodingStrategy: .convertToSnakeCase)
            .returning("id").first()
        guard let id = try row?.decode(column: "id", as: Int64.self) else {
            throw ConfigError("the database returned no identifier for a new admin API key")
        }
        return id
    }

    func find(_ id: Int64) async throws -> AdminAPIKeyRecord? {
        try await database.sql.select().column("*").from("admin_api_keys").where("id", .equal, id)
            .first(decoding: AdminAPIKeyRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func all() async throws -> [AdminAPIKeyRecord] {
        try await database.sql.select().column("*").from("admin_api_keys").orderBy("id")
            .all(decoding: AdminAPIKeyRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func touch(_ id: Int64, at date: Date) async throws {
        try await database.sql.update("admin_api_keys").set("last_used_at", to: date).where("id", .equal, id).run()
    }

    func revoke(_ id: Int64, at date: Date) async throws -> Bool {
        try await database.sql.update("admin_api_keys").set("revoked_at", to: date)
            .where("id", .equal, id).where("revoked_at", .is, SQLLiteral.null)
            .returning("id").all().count == 1
    }
}
