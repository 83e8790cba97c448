import Foundation
import SQLKit

/// `PersonalAccessTokenRepository` on SQL.
struct SQLPersonalAccessTokenRepository: PersonalAccessTokenRepository {
    let database: HaleDatabase

    func create(_ token: PersonalAccessTokenRecord) async throws -> Int64 {
        let row = try await database.sql.insert(into: "personal_access_tokens")
            .model(token, keyEncodingStrategy: .convertToSnakeCase)
            .returning("id").first()
        guard let id = try row?.decode(column: "id", as: Int64.self) else {
            throw ConfigError("the database returned no identifier for a new personal access token")
        }
        return id
    }

    func find(_ id: Int64) async throws -> PersonalAccessTokenRecord? {
        try await database.sql.select().column("*").from("personal_access_tokens").where("id", .equal, id)
            .first(decoding: PersonalAccessTokenRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func touch(_ id: Int64, at date: Date) async throws {
        try await database.sql.update("personal_access_tokens").set("last_used_at", to: date)
            .where("id", .equal, id).run()
    }

    func revoke(_ id: Int64, at date: Date) async throws -> Bool {
        let rows = try await database.sql.update("personal_access_tokens").set("revoked_at", to: date)
            .where("id", .equal, id).where("revoked_at", .is, SQLLiteral.null)
            .returning("id").all()
        return rows.count == 1
    }
}
