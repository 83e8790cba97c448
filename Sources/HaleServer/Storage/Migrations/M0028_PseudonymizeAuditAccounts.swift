import Crypto
import Fluent
import Foundation
import SQLKit

/// The audit trail names accounts by keyed pseudonym (`AuditPseudonym`) instead of by id, so that erasing an account
/// leaves events that name no one while the chain still verifies: each account gets a key in `audit_account_keys`
/// (deleted with the account), `audit_events.account_pseudonym` replaces `account_id`, and the chain hashes the
/// pseudonym.
///
/// Existing events are carried over carefully. The whole chain is first verified in its old form, and a broken
/// chain stops the migration (re-chaining it would hide the break): `hale audit verify` on the previous version
/// names the event. Then, in one transaction, every event gets its account's pseudonym (an account already deleted
/// gets one under a key used once and never stored) and the chain is hashed anew from the first event. The old
/// chain's last hash is logged, so the old trail can still be matched against a copy. This cannot be reverted: the
/// keys of accounts erased since are gone by design.
struct M0028_PseudonymizeAuditAccounts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        // Before any change, so that a broken chain leaves the schema as it was.
        let tail = try await Self.verifyOldChain(sql)
        try await database.schema("audit_account_keys")
            .field("account_id", .uuid, .identifier(auto: false), .references("accounts", "id", onDelete: .cascade))
            .field("secret", .string, .required)
            .create()
        try await database.schema("audit_events").field("account_pseudonym", .string).update()
        try await database.transaction { transaction in
            guard let sql = transaction as? any SQLDatabase else { return }
            try await Self.rechain(sql)
        }
        if let tail {
            database.logger.notice(
                "audit trail pseudonymised and re-chained",
                metadata: ["events": "\(tail.sequence)", "previousLastHash": "\(tail.hash)"])
        }
        try await sql.drop(index: "audit_events_account_id").run()
        try await database.schema("audit_events").deleteField("account_id").update()
        try await sql.create(index: "audit_events_account_pseudonym").on("audit_events").column("account_pseudonym")
            .run()
    }

    func revert(on database: any Database) async throws {
        throw MigrationError(
            "M0028 cannot be reverted: the audit trail names accounts by pseudonyms whose erased accounts' keys are gone"
        )
    }

    /// An event as the old chain stored it.
    private struct OldEvent: Decodable {
        let sequence: Int64
        let accountId: AccountID
        let eventType: String
        let deviceId: DeviceID?
        let sessionId: SessionID?
        let ipRange: String?
        let details: String
        let createdAt: Date
        let previousHash: String
        let hash: String

        /// The hash the old format gave it: over the account's id where the pseudonym now stands.
        var oldExpectedHash: String {
            event(pseudonym: accountId.description).expectedHash
        }

        func event(pseudonym: String) -> AuditEvent {
            AuditEvent(
                sequence: sequence, accountPseudonym: pseudonym, eventType: eventType, deviceId: deviceId,
                sessionId: sessionId, ipRange: ipRange, details: details, createdAt: createdAt,
                previousHash: previousHash, hash: hash)
        }
    }

    private static func page(_ sql: any SQLDatabase, after sequence: Int64) async throws -> [OldEvent] {
        try await sql.select().column("*").from("audit_events").where("sequence", .greaterThan, sequence)
            .orderBy("sequence").limit(1_000)
            .all(decoding: OldEvent.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    /// Checks every event of the old chain; returns its last event's sequence and hash, nil when it is empty.
    private static func verifyOldChain(_ sql: any SQLDatabase) async throws -> (sequence: Int64, hash: String)? {
        var previous = AuditEvent.genesisHash
        var last: Int64 = 0
        while true {
            let page = try await page(sql, after: last)
            for event in page {
                guard event.sequence == last + 1, event.previousHash == previous, event.hash == event.oldExpectedHash
                else {
                    throw MigrationError(
                        "the audit trail is broken at event \(last + 1): it is not re-chained under pseudonyms; "
                            + "investigate with hale audit verify on the previous version")
                }
                previous = event.hash
                last = event.sequence
            }
            if page.count < 1_000 { return last == 0 ? nil : (last, previous) }
        }
    }

    /// Gives every account a key and every event its pseudonym, and hashes the chain anew.
    private static func rechain(_ sql: any SQLDatabase) async throws {
        let accounts = try await sql.select().column("id").from("accounts").all(
            decodingColumn: "id", as: AccountID.self)
        var keys: [AccountID: SymmetricKey] = [:]
        for account in accounts {
            let stored = AuditPseudonym.newKey()
            try await sql.insert(into: "audit_account_keys").columns("account_id", "secret")
                .values(SQLBind(account), SQLBind(stored)).run()
            keys[account] = AuditPseudonym.key(stored)
        }
        var previous = AuditEvent.genesisHash
        var last: Int64 = 0
        while true {
            let page = try await page(sql, after: last)
            for old in page {
                // An account deleted before this migration: a key used once, for all its events, and never stored.
                let key = keys[old.accountId] ?? SymmetricKey(size: .bits256)
                keys[old.accountId] = key
                var event = old.event(pseudonym: AuditPseudonym.of(old.accountId, key: key))
                event.previousHash = previous
                event.hash = event.expectedHash
                try await sql.update("audit_events").set("account_pseudonym", to: event.accountPseudonym)
                    .set("previous_hash", to: event.previousHash).set("hash", to: event.hash)
                    .where("sequence", .equal, event.sequence).run()
                previous = event.hash
                last = event.sequence
            }
            if page.count < 1_000 { return }
        }
    }
}
