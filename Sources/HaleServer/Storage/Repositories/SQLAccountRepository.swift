import Foundation
import SQLKit

/// `AccountRepository` on SQL.
struct SQLAccountRepository: AccountRepository {
    let database: HaleDatabase

    func create(_ account: Account) async throws {
        do {
            try await database.writeTransaction { database in
                try await Self.insert(account, in: database)
            }
        } catch  where HaleDatabase.isConstraintViolation(error) {
            throw HaleError(.conflict, .conflict, message: "An account with this email already exists.")
        }
    }

    /// Inserts the account and, in the same transaction, its `account.created` event.
    static func insert(_ account: Account, in database: HaleDatabase) async throws {
        try await database.sql.insert(into: "accounts").model(account, keyEncodingStrategy: .convertToSnakeCase).run()
        try await SQLWebhookOutbox.enqueue(
            WebhookEvent(.accountCreated, account: account.id, at: account.createdAt), in: database)
    }

    func find(_ id: AccountID) async throws -> Account? {
        try await database.sql.select().column("*").from("accounts").where("id", .equal, id)
            .first(decoding: Account.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func find(email: String) async throws -> Account? {
        try await database.sql.select().column("*").from("accounts").where("email", .equal, email)
            .first(decoding: Account.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func delete(_ id: AccountID, at date: Date) async throws -> Bool {
        try await database.writeTransaction { database in
            // Locking the identities makes a sign-in that is storing a new Apple token wait, then fail with the
            // account gone, and queue that token itself.
            let identities = database.sql.select().column("client_id").column("refresh_token_sealed")
                .from("social_identities").where("account_id", .equal, id)
            if database.isPostgres { identities.for(.update) }
            let sealed = try await identities.all().filter {
                (try? $0.decodeNil(column: "refresh_token_sealed")) == false
                    && (try? $0.decodeNil(column: "client_id")) == false
            }
            let revocations = SQLAppleRevocationRepository(database: database)
            for row in sealed {
                try await revocations.enqueue(
                    AppleTokenRevocation(
                        id: UUID(), clientId: try row.decode(column: "client_id", as: String.self),
                        refreshTokenSealed: try row.decode(column: "refresh_token_sealed", as: String.self),
                        attempts: 0, nextAttemptAt: date, lastError: nil, createdAt: date))
            }
            // A fitness challenge the account created stays for its other members, with their progress: the
            // foreign key sets its creator to null. One that no one else ever joined goes with the account.
            try await database.sql.raw(
                """
                DELETE FROM fitness_challenges WHERE creator_account_id = \(bind: id) AND NOT EXISTS (
                    SELECT 1 FROM fitness_challenge_members m
                    WHERE m.challenge_id = fitness_challenges.id AND m.account_id <> \(bind: id))
                """
            ).run()
            // Its Firebase users' tokens from before now must not sign in again, to a new account or any.
            let firebaseUsers = try await database.sql.select().column("subject").from("social_identities")
                .where("account_id", .equal, id).where("provider", .equal, FirebaseAccounts.provider)
                .all(decodingColumn: "subject", as: String.self)
            for uid in firebaseUsers {
                try await database.sql.insert(into: "firebase_deleted_users").columns("uid_hash", "deleted_at")
                    .values(SQLBind(FirebaseAccounts.uidHash(uid)), SQLBind(date))
                    .onConflict(with: ["uid_hash"]) { $0.set(excludedValueOf: "deleted_at") }.run()
            }
            // Single-use values bound to the account (handoff codes, device-key and passkey challenges) carry its
            // id without a foreign key, as they may outlive a session; they go with the account, not at expiry.
            try await database.sql.delete(from: "server_challenges").where("account_id", .equal, id).run()
            try await Self.deleteWebhookEvents(of: id, on: database)
            return try await database.sql.delete(from: "accounts").where("id", .equal, id).returning("id").all()
                .count == 1
        }
    }

    /// Deletes the account's webhook events, delivered or not, with their deliveries: what the backend has not yet
    /// heard about a deleted account it need not hear, and `account.deleted`, written after, tells it to forget the
    /// rest.
    private static func deleteWebhookEvents(of account: AccountID, on database: HaleDatabase) async throws {
        try await database.sql.raw(
            """
            DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT d.id FROM webhook_deliveries d
                JOIN webhook_events e ON e.sequence = d.event_sequence WHERE e.account_id = \(bind: account))
            """
        ).run()
        try await database.sql.raw(
            """
            DELETE FROM webhook_deliveries WHERE event_sequence IN (
                SELECT sequence FROM webhook_events WHERE account_id = \(bind: account))
            """
        ).run()
        try await database.sql.delete(from: "webhook_events").where("account_id", .equal, account).run()
    }

    /// Ends the account's sign-ins at `date`, on `database` (the transaction that revokes its sessions): Firebase ID
    /// tokens, which Hale cannot revoke, from sign-ins before it are refused.
    static func endSignIns(of account: AccountID, at date: Date, on database: HaleDatabase) async throws {
        try await database.sql.update("accounts").set("sign_ins_ended_at", to: date).where("id", .equal, account)
            .run()
    }

    func signInsEnded(of account: AccountID) async throws -> Date? {
        try await database.sql.select().column("sign_ins_ended_at").from("accounts")
            .where("id", .equal, account).first(decodingColumn: "sign_ins_ended_at", as: Date?.self) ?? nil
    }

    func hasCredentials(_ account: AccountID) async throws -> Bool {
        let addresses = try await database.sql.select().column("id").from("email_addresses")
            .where("account_id", .equal, account).limit(1).all()
        guard addresses.isEmpty else { return true }
        return try await hasSignInCredentials(account)
    }

    func hasSignInCredentials(_ account: AccountID) async throws -> Bool {
        let row = try await database.sql.raw(
            """
            SELECT (EXISTS (SELECT 1 FROM passkey_credentials WHERE account_id = \(bind: account))
                OR EXISTS (SELECT 1 FROM device_keys WHERE account_id = \(bind: account) AND revoked_at IS NULL)
                OR EXISTS (SELECT 1 FROM social_identities WHERE account_id = \(bind: account))) AS found
            """
        ).first()
        return try row?.decode(column: "found", as: Bool.self) ?? false
    }

    func firebaseUserDeleted(uidHash: String) async throws -> Date? {
        try await database.sql.select().column("deleted_at").from("firebase_deleted_users")
            .where("uid_hash", .equal, uidHash).first(decodingColumn: "deleted_at", as: Date.self)
    }
}
