import Foundation
import SQLKit

/// `PersonalAccessTokenRepository` on SQL.
struct SQLPersonalAccessTokenRepository: PersonalAccessTokenRepository {
    let database: HaleDatabase

    /// Uses written per transaction, so that a large flush never holds SQLite's write lock for long.
    static let usesPerTransaction = 500

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

    func tokens(of account: AccountID, activeAt date: Date?, limit: Int) async throws -> [PersonalAccessTokenRecord] {
        let query = database.sql.select().column("*").from("personal_access_tokens")
            .where("account_id", .equal, account)
        if let date {
            query.where("revoked_at", .is, SQLLiteral.null)
                .where(group: { $0.where("expires_at", .is, SQLLiteral.null).orWhere("expires_at", .greaterThan, date) }
                )
        }
        return try await query.orderBy("id", .descending).limit(limit)
            .all(decoding: PersonalAccessTokenRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    /// In identifier order, so that two instances flushing at once lock rows in the same order and never deadlock.
    func recordUses(_ uses: [Int64: Date]) async throws {
        let ordered = uses.sorted { $0.key < $1.key }
        for start in stride(from: 0, to: ordered.count, by: Self.usesPerTransaction) {
            let chunk = ordered[start..<min(start + Self.usesPerTransaction, ordered.count)]
            try await database.writeTransaction { database in
                for (id, date) in chunk {
                    try await database.sql.update("personal_access_tokens").set("last_used_at", to: date)
                        .where("id", .equal, id)
                        .where(group: {
                            $0.where("last_used_at", .is, SQLLiteral.null).orWhere("last_used_at", .lessThan, date)
                        })
                        .run()
                }
            }
        }
    }

    func revoke(_ id: Int64, at date: Date) async throws -> Bool {
        let rows = try await database.sql.update("personal_access_tokens").set("revoked_at", to: date)
            .where("id", .equal, id).where("revoked_at", .is, SQLLiteral.null)
            .returning("id").all()
        return rows.count == 1
    }

    func revoke(_ id: Int64, of account: AccountID, at date: Date, audit: AuditAppend) async throws -> Bool {
        try await database.writeTransaction { database in
            let rows = try await database.sql.update("personal_access_tokens").set("revoked_at", to: date)
                .where("id", .equal, id).where("account_id", .equal, account)
                .where("revoked_at", .is, SQLLiteral.null)
                .returning("id").all()
            guard rows.count == 1 else { return false }
            try await SQLAuditRepository.append(audit, in: database)
            return true
        }
    }

    /// Revokes every unrevoked token of the account on `database`, which may be a transaction's; returns how many.
    static func revokeAll(of account: AccountID, at date: Date, on database: HaleDatabase) async throws -> Int {
        try await database.sql.update("personal_access_tokens").set("revoked_at", to: date)
            .where("account_id", .equal, account).where("revoked_at", .is, SQLLiteral.null)
            .returning("id").all().count
    }
}
