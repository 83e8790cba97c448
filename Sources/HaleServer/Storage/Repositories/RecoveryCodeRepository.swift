import Foundation
import SQLKit

/// Stores accounts' recovery codes, by hash.
protocol RecoveryCodeRepository: Sendable {
    /// Replaces the account's codes with these hashes, with the audit event, in one transaction.
    func replace(of account: AccountID, with hashes: [String], at date: Date, audit: AuditAppend) async throws
    /// How many of the account's codes are unused.
    func remaining(of account: AccountID) async throws -> Int
    /// Marks the unused code with this hash used, once: the account it belongs to, or nil when no unused code has
    /// it. Of two uses racing, one wins.
    func use(hash: String, at date: Date) async throws -> AccountID?
}

/// `RecoveryCodeRepository` on SQL.
struct SQLRecoveryCodeRepository: RecoveryCodeRepository {
    let database: HaleDatabase

    func replace(of account: AccountID, with hashes: [String], at date: Date, audit: AuditAppend) async throws {
        try await database.writeTransaction { database in
            try await database.sql.delete(from: "recovery_codes").where("account_id", .equal, account).run()
            let insert = database.sql.insert(into: "recovery_codes").columns("code_hash", "account_id", "created_at")
            for hash in hashes {
                insert.values(SQLBind(hash), SQLBind(account), SQLBind(date))
            }
            try await insert.run()
            try await SQLAuditRepository.append(audit, in: database)
        }
    }

    func remaining(of account: AccountID) async throws -> Int {
        try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("recovery_codes").where("account_id", .equal, account).where("used_at", .is, SQLLiteral.null)
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    func use(hash: String, at date: Date) async throws -> AccountID? {
        try await database.sql.update("recovery_codes").set("used_at", to: date)
            .where("code_hash", .equal, hash).where("used_at", .is, SQLLiteral.null)
            .returning("account_id").first(decodingColumn: "account_id", as: AccountID.self)
    }
}
