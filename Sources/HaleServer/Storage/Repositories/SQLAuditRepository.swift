import Crypto
import Foundation
import SQLKit

/// `AuditRepository` on SQL.
struct SQLAuditRepository: AuditRepository {
    let database: HaleDatabase

    func append(_ append: AuditAppend) async throws -> AuditEvent {
        let database = database
        guard database.isPostgres else {
            return try await database.writeTransaction { try await Self.append(append, in: $0) }
        }
        return try await database.auditGate.through {
            try await database.writeTransaction { try await Self.append(append, in: $0) }
        }
    }

    /// Appends inside the caller's write transaction: the chain's tail is read and extended under its lock.
    @discardableResult
    static func append(_ append: AuditAppend, in database: HaleDatabase) async throws -> AuditEvent {
        // Read before the lock, which every append waits for: the lock is held only to extend the chain.
        var recipients: [SQLPushOutboxRepository.AlertRecipient] = []
        var addresses: [String] = []
        if let alert = append.alert {
            recipients = try await SQLPushOutboxRepository.recipients(of: alert, in: database)
        }
        if let alert = append.alert, alert.kind.isMailed {
            addresses = try await SQLMailOutboxRepository.alertRecipients(of: alert.account, in: database)
        }
        let pseudonym: String
        if let given = append.pseudonym {
            pseudonym = given
        } else {
            pseudonym = try await accountPseudonym(of: append.account, in: database)
        }
        if database.isPostgres {
            // SQLite's BEGIN IMMEDIATE already serializes writers; PostgreSQL needs one lock for the chain's tail.
            try await database.sql.raw("LOCK TABLE audit_events IN SHARE ROW EXCLUSIVE MODE").run()
        }
        let last = try await database.sql.select().column("*").from("audit_events")
            .orderBy("sequence", .descending).limit(1)
            .first(decoding: AuditEvent.self, keyDecodingStrategy: .convertFromSnakeCase)
        let event = append.make((last?.sequence ?? 0) + 1, last?.hash ?? AuditEvent.genesisHash, pseudonym)
        try await database.sql.insert(into: "audit_events")
            .model(event, keyEncodingStrategy: .convertToSnakeCase).run()
        if var alert = append.alert {
            alert.eventKey = "audit:\(event.sequence)"
            try await SQLPushOutboxRepository.enqueue(alert, to: recipients, in: database)
            try await SQLMailOutboxRepository.enqueue(alert, to: addresses, in: database)
        }
        for reported in append.reported { try await SQLWebhookOutbox.enqueue(reported, in: database) }
        return event
    }

    func events(of account: AccountID, limit: Int) async throws -> [AuditEvent] {
        guard let key = try await Self.key(of: account, in: database) else { return [] }
        return try await database.sql.select().column("*").from("audit_events")
            .where("account_pseudonym", .equal, AuditPseudonym.of(account, key: key))
            .orderBy("sequence", .descending).limit(limit)
            .all(decoding: AuditEvent.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func events(of account: AccountID, after sequence: Int64, limit: Int) async throws -> [AuditEvent] {
        guard let key = try await Self.key(of: account, in: database) else { return [] }
        return try await database.sql.select().column("*").from("audit_events")
            .where("account_pseudonym", .equal, AuditPseudonym.of(account, key: key))
            .where("sequence", .greaterThan, sequence).orderBy("sequence").limit(limit)
            .all(decoding: AuditEvent.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    /// The account's pseudonym under its key, which its first event makes. An account that no longer exists gets a
    /// pseudonym under a key used once and never stored: that event is linked to no one.
    func pseudonym(of account: AccountID) async throws -> String? {
        try await Self.key(of: account, in: database).map { AuditPseudonym.of(account, key: $0) }
    }

    private static func accountPseudonym(of account: AccountID, in database: HaleDatabase) async throws -> String {
        if let key = try await key(of: account, in: database) { return AuditPseudonym.of(account, key: key) }
        let exists =
            try await database.sql.select().column("id").from("accounts").where("id", .equal, account)
            .first() != nil
        guard exists else { return AuditPseudonym.of(account, key: SymmetricKey(size: .bits256)) }
        try await database.sql.raw(
            """
            INSERT INTO audit_account_keys (account_id, secret) VALUES (\(bind: account), \(bind: AuditPseudonym.newKey()))
            ON CONFLICT (account_id) DO NOTHING
            """
        ).run()
        guard let key = try await key(of: account, in: database) else {
            throw AuditPseudonym.UnreadableKey()
        }
        return AuditPseudonym.of(account, key: key)
    }

    private static func key(of account: AccountID, in database: HaleDatabase) async throws -> SymmetricKey? {
        try await database.sql.select().column("secret").from("audit_account_keys")
            .where("account_id", .equal, account).first(decodingColumn: "secret", as: String.self)
            .flatMap(AuditPseudonym.key)
    }

    func newest() async throws -> AuditEvent? {
        try await database.sql.select().column("*").from("audit_events").orderBy("sequence", .descending).limit(1)
            .first(decoding: AuditEvent.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func events(from sequence: Int64, limit: Int) async throws -> [AuditEvent] {
        try await database.sql.select().column("*").from("audit_events").where(
            "sequence", .greaterThanOrEqual, sequence
        )
        .orderBy("sequence").limit(limit)
        .all(decoding: AuditEvent.self, keyDecodingStrategy: .convertFromSnakeCase)
    }
}
