import Foundation
import SQLKit

/// `AuditRepository` on SQL.
struct SQLAuditRepository: AuditRepository {
    let database: HaleDatabase

    func append(alert: SecurityAlertFanOut?, _ make: @escaping @Sendable (Int64, String) -> AuditEvent)
        async throws -> AuditEvent
    {
        try await database.writeTransaction { database in
            if database.isPostgres {
                // SQLite's BEGIN IMMEDIATE already serializes writers; PostgreSQL needs one lock for the chain's tail.
                try await database.sql.raw("LOCK TABLE audit_events IN SHARE ROW EXCLUSIVE MODE").run()
            }
            let last = try await database.sql.select().column("*").from("audit_events")
                .orderBy("sequence", .descending).limit(1)
                .first(decoding: AuditEvent.self, keyDecodingStrategy: .convertFromSnakeCase)
            let event = make((last?.sequence ?? 0) + 1, last?.hash ?? AuditEvent.genesisHash)
            try await database.sql.insert(into: "audit_events")
                .model(event, keyEncodingStrategy: .convertToSnakeCase).run()
            if var alert {
                alert.eventKey = "audit:\(event.sequence)"
                try await SQLPushOutboxRepository.enqueue(alert, in: database)
            }
            return event
        }
    }

    func events(of account: AccountID, limit: Int) async throws -> [AuditEvent] {
        try await database.sql.select().column("*").from("audit_events").where("account_id", .equal, account)
            .orderBy("sequence", .descending).limit(limit)
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
