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
        if let alert = append.alert {
            recipients = try await SQLPushOutboxRepository.recipients(of: alert, in: database)
        }
        if database.isPostgres {
            // SQLite's BEGIN IMMEDIATE already serializes writers; PostgreSQL needs one lock for the chain's tail.
            try await database.sql.raw("LOCK TABLE audit_events IN SHARE ROW EXCLUSIVE MODE").run()
        }
        let last = try await database.sql.select().column("*").from("audit_events")
            .orderBy("sequence", .descending).limit(1)
            .first(decoding: AuditEvent.self, keyDecodingStrategy: .convertFromSnakeCase)
        let event = append.make((last?.sequence ?? 0) + 1, last?.hash ?? AuditEvent.genesisHash)
        try await database.sql.insert(into: "audit_events")
            .model(event, keyEncodingStrategy: .convertToSnakeCase).run()
        if var alert = append.alert {
            alert.eventKey = "audit:\(event.sequence)"
            try await SQLPushOutboxRepository.enqueue(alert, to: recipients, in: database)
        }
        return event
    }

    func events(of account: AccountID, limit: Int) async throws -> [AuditEvent] {
        try await database.sql.select().column("*").from("audit_events").where("account_id", .equal, account)
            .orderBy("sequence", .descending).limit(limit)
            .all(decoding: AuditEvent.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func events(of account: AccountID, after sequence: Int64, limit: Int) async throws -> [AuditEvent] {
        try await database.sql.select().column("*").from("audit_events").where("account_id", .equal, account)
            .where("sequence", .greaterThan, sequence).orderBy("sequence").limit(limit)
            .all(decoding: AuditEvent.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func events(from sequence: Int64, limit: Int) async throws -> [AuditEvent] {
        try await database.sql.select().column("*").from("audit_events").where(
            "sequence", .greaterThanOrEqual, sequence
        )
        .orderBy("sequence").limit(limit)
        .all(decoding: AuditEvent.self, keyDecodingStrategy: .convertFromSnakeCase)
    }
}
