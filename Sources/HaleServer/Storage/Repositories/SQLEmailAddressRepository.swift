import Foundation
import SQLKit

/// `EmailAddressRepository` on SQL.
struct SQLEmailAddressRepository: EmailAddressRepository {
    let database: HaleDatabase

    func addresses(of account: AccountID) async throws -> [VerifiedEmail] {
        try await database.sql.select().columns("address", "verified_by", "verified_at").from("email_addresses")
            .where("account_id", .equal, account).orderBy("address")
            .all(decoding: VerifiedEmail.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func owner(of address: String) async throws -> AccountID? {
        try await database.sql.select().column("account_id").from("email_addresses")
            .where("address", .equal, address).first(decodingColumn: "account_id", as: AccountID.self)
    }

    func codesMade(by account: AccountID, since date: Date) async throws -> Int {
        try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("email_codes").where("account_id", .equal, account).where("created_at", .greaterThanOrEqual, date)
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    func issue(_ code: EmailCodeRecord, mail: MailOutboxMessage) async throws {
        try await database.writeTransaction { database in
            // Spent and expired codes are kept (they count against the account's budget); only unused ones for the
            // same address go, so that one code is live at a time and a new one never adds attempts.
            try await database.sql.delete(from: "email_codes").where("account_id", .equal, code.accountId)
                .where("address", .equal, code.address).where("purpose", .equal, code.purpose)
                .where("used_at", .is, SQLLiteral.null).where("expires_at", .greaterThan, code.createdAt).run()
            try await database.sql.insert(into: "email_codes")
                .model(code, keyEncodingStrategy: .convertToSnakeCase, nilEncodingStrategy: .asNil).run()
            _ = try await SQLMailOutboxRepository.insert([mail], on: database.sql)
        }
    }

    func attempt(
        account: AccountID, address: String, purpose: EmailCodePurpose, at date: Date, maximumAttempts: Int
    ) async throws -> EmailCodeRecord? {
        // One statement: PostgreSQL re-checks the outer conditions on the row it waited for, so racing attempts
        // each count, and none past the last.
        let query: SQLQueryString = """
            UPDATE email_codes SET attempts = attempts + 1
            WHERE id = (SELECT id FROM email_codes
              WHERE account_id = \(bind: account) AND address = \(bind: address) AND purpose = \(bind: purpose.rawValue)
                AND used_at IS NULL AND expires_at > \(bind: date)
              ORDER BY created_at DESC LIMIT 1)
            AND used_at IS NULL AND attempts < \(bind: maximumAttempts)
            RETURNING *
            """
        return try await database.writeTransaction { database in
            try await database.sql.raw(query)
                .first(decoding: EmailCodeRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    func spend(_ code: UUID, at date: Date) async throws -> Bool {
        try await database.sql.update("email_codes").set("used_at", to: date)
            .where("id", .equal, code).where("used_at", .is, SQLLiteral.null).returning("id").all().count == 1
    }

    func verify(
        _ address: VerifiedEmail, of account: AccountID, spending code: UUID, at date: Date, audit: AuditAppend,
        notices: [MailOutboxMessage]
    ) async throws -> Bool {
        try await database.writeTransaction { database in
            let spent = try await database.sql.update("email_codes").set("used_at", to: date)
                .where("id", .equal, code).where("used_at", .is, SQLLiteral.null).returning("id").all()
            guard spent.count == 1 else { return false }
            if let owner = try await database.sql.select().column("account_id").from("email_addresses")
                .where("address", .equal, address.address).first(decodingColumn: "account_id", as: AccountID.self)
            {
                guard owner == account else { throw EmailAddresses.taken }
                return true
            }
            try await Self.insert(address, of: account, on: database)
            _ = try await SQLMailOutboxRepository.insert(notices, on: database.sql)
            try await SQLAuditRepository.append(audit, in: database)
            return true
        }
    }

    func purgeCodes(madeBefore date: Date) async throws -> Int {
        try await database.sql.delete(from: "email_codes").where("created_at", .lessThan, date).returning("id").all()
            .count
    }

    func adopt(_ address: VerifiedEmail, of account: AccountID, audit: AuditAppend, notices: [MailOutboxMessage])
        async throws -> Bool
    {
        try await database.writeTransaction { database in
            let stored =
                try await database.sql.insert(into: "email_addresses")
                .columns("id", "account_id", "address", "verified_by", "verified_at")
                .values(
                    SQLBind(UUID()), SQLBind(account), SQLBind(address.address), SQLBind(address.verifiedBy),
                    SQLBind(address.verifiedAt)
                )
                .ignoringConflicts(with: "address").returning("id").all().count == 1
            guard stored else { return false }
            _ = try await SQLMailOutboxRepository.insert(notices, on: database.sql)
            try await SQLAuditRepository.append(audit, in: database)
            return true
        }
    }

    private static func insert(_ address: VerifiedEmail, of account: AccountID, on database: HaleDatabase)
        async throws
    {
        do {
            try await database.sql.insert(into: "email_addresses")
                .columns("id", "account_id", "address", "verified_by", "verified_at")
                .values(
                    SQLBind(UUID()), SQLBind(account), SQLBind(address.address), SQLBind(address.verifiedBy),
                    SQLBind(address.verifiedAt)
                ).run()
        } catch  where HaleDatabase.isConstraintViolation(error) {
            throw EmailAddresses.taken
        }
    }

    func remove(_ address: String, of account: AccountID, audit: AuditAppend, notices: [MailOutboxMessage])
        async throws -> Bool
    {
        try await database.writeTransaction { database in
            let removed = try await database.sql.delete(from: "email_addresses").where("account_id", .equal, account)
                .where("address", .equal, address).returning("id").all()
            guard removed.count == 1 else { return false }
            _ = try await SQLMailOutboxRepository.insert(notices, on: database.sql)
            try await SQLAuditRepository.append(audit, in: database)
            return true
        }
    }
}
