import Foundation
import SQLKit
import WebAuthn

/// `PasskeyRepository` on SQL.
struct SQLPasskeyRepository: PasskeyRepository {
    let database: HaleDatabase

    func userHandle(of account: AccountID) async throws -> String? {
        try await database.sql.select().column("user_handle").from("passkey_users").where("account_id", .equal, account)
            .first(decodingColumn: "user_handle", as: String.self)
    }

    func setUserHandle(_ handle: String, of account: AccountID) async throws {
        try await database.sql.insert(into: "passkey_users").columns("account_id", "user_handle")
            .values(SQLBind(account), SQLBind(handle)).run()
    }

    func account(forUserHandle handle: String) async throws -> AccountID? {
        try await database.sql.select().column("account_id").from("passkey_users").where("user_handle", .equal, handle)
            .first(decodingColumn: "account_id", as: AccountID.self)
    }

    func insert(_ credential: PasskeyCredential, audit: AuditAppend?) async throws {
        do {
            try await database.writeTransaction { database in
                try await database.sql.insert(into: "passkey_credentials")
                    .model(credential, keyEncodingStrategy: .convertToSnakeCase).run()
                if let audit { try await SQLAuditRepository.append(audit, in: database) }
            }
        } catch  where HaleDatabase.isConstraintViolation(error) {
            throw HaleError(.conflict, .conflict, message: "This passkey is registered already.")
        }
    }

    func find(credentialID: String) async throws -> PasskeyCredential? {
        try await select().where("credential_id", .equal, credentialID)
            .first(decoding: PasskeyCredential.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func credentials(of account: AccountID) async throws -> [PasskeyCredential] {
        try await select().where("account_id", .equal, account).orderBy("created_at")
            .all(decoding: PasskeyCredential.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func recordSignIn(_ id: UUID, signCount: Int64, backupState: Bool, at date: Date) async throws -> Bool {
        let update = database.sql.update("passkey_credentials")
            .set("sign_count", to: signCount).set("backup_state", to: backupState).set("last_used_at", to: date)
            .where("id", .equal, id)
        if signCount == 0 {
            update.where("sign_count", .equal, 0)
        } else {
            update.where("sign_count", .lessThan, signCount)
        }
        let rows = try await update.returning("id").all()
        return rows.count == 1
    }

    func markSuspectedClone(_ id: UUID, signal: CloneSignal, at date: Date, audit: AuditAppend) async throws {
        try await database.writeTransaction { database in
            try await database.sql.update("passkey_credentials").set("suspected_clone_at", to: date)
                .set("suspected_clone_reason", to: signal.rawValue).where("id", .equal, id).run()
            try await SQLAuditRepository.append(audit, in: database)
        }
    }

    func recordFlaggedSignIn(_ id: UUID, at date: Date) async throws {
        try await database.sql.update("passkey_credentials").set("last_used_at", to: date).where("id", .equal, id).run()
    }

    func rename(_ id: UUID, of account: AccountID, to name: String) async throws -> Bool {
        try await database.sql.update("passkey_credentials").set("name", to: name)
            .where("id", .equal, id).where("account_id", .equal, account)
            .returning("id").all().count == 1
    }

    func delete(_ id: UUID, of account: AccountID, audit: AuditAppend) async throws -> Bool {
        try await database.writeTransaction { database in
            let deleted =
                try await database.sql.delete(from: "passkey_credentials")
                .where("id", .equal, id).where("account_id", .equal, account)
                .returning("id").all().count == 1
            guard deleted else { return false }
            try await SQLAuditRepository.append(audit, in: database)
            return true
        }
    }

    private func select() -> SQLSelectBuilder {
        database.sql.select().column("*").from("passkey_credentials")
    }
}
