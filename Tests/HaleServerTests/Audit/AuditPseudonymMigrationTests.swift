import Fluent
import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor

@testable import HaleServer

/// M0028 carries an audit trail chained over account ids into one chained over pseudonyms, and refuses a broken one.
@Suite("Audit trail: M0028 pseudonymises the accounts of existing events")
struct AuditPseudonymMigrationTests {
    /// Runs `body` on one connection, as the migrator runs a migration: SQLite's schema changes are then seen at
    /// once by every statement that follows.
    static func onOneConnection(
        _ app: Application, _ body: @escaping @Sendable (any Database & SQLDatabase) async throws -> Void
    ) async throws {
        try await app.hale.database.fluent.withConnection { connection in
            guard let sql = connection as? any Database & SQLDatabase else { throw TestSetupError("no SQL") }
            try await body(sql)
        }
    }

    /// Puts the audit tables back as they were before M0028, with `events` in the old format: (account, type).
    static func oldTrail(_ database: any Database & SQLDatabase, _ events: [(AccountID, String)]) async throws {
        let sql = database
        try await sql.raw("DROP TABLE audit_account_keys").run()
        try await sql.drop(index: "audit_events_account_pseudonym").run()
        try await database.schema("audit_events").deleteField("account_pseudonym").update()
        try await database.schema("audit_events").field("account_id", .uuid).update()
        try await sql.create(index: "audit_events_account_id").on("audit_events").column("account_id").run()
        var previous = AuditEvent.genesisHash
        for (index, (account, type)) in events.enumerated() {
            // The old hash: the account's id where the pseudonym now stands.
            var event = AuditEvent(
                sequence: Int64(index + 1), accountPseudonym: account.description, eventType: type, deviceId: nil,
                sessionId: nil, ipRange: "203.0.113.0/24", details: "{}",
                createdAt: Date(timeIntervalSince1970: 1_760_000_000 + Double(index)), previousHash: previous,
                hash: "")
            event.hash = event.expectedHash
            try await sql.insert(into: "audit_events")
                .columns(
                    "sequence", "account_id", "event_type", "ip_range", "details", "created_at", "previous_hash", "hash"
                )
                .values(
                    SQLBind(event.sequence), SQLBind(account), SQLBind(type), SQLBind(event.ipRange), SQLBind("{}"),
                    SQLBind(event.createdAt), SQLBind(previous), SQLBind(event.hash)
                ).run()
            previous = event.hash
        }
    }

    @Test(
        "every event keeps its content, gets its account's pseudonym, and the new chain verifies",
        arguments: TestDatabase.available)
    func carriesTheTrail(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, _) = try await makeAccount(app)
            let erased = AccountID.random()
            let trail = [
                (account.id, "passkey_registered"), (erased, "account_deleted"), (account.id, "device_deleted"),
            ]
            try await Self.onOneConnection(app) { database in
                try await Self.oldTrail(database, trail)
                try await M0028_PseudonymizeAuditAccounts().prepare(on: database)
            }

            #expect(try await app.hale.audit.verify() == .intact(count: 3))
            let mine = try await app.hale.audit.events(of: account.id)
            #expect(mine.map(\.eventType) == ["device_deleted", "passkey_registered"])
            #expect(mine.allSatisfy { $0.ipRange == "203.0.113.0/24" && $0.accountPseudonym.count == 64 })
            let rows = try await app.hale.database.sql.raw("SELECT * FROM audit_events").all()
            for row in rows {
                #expect(!row.contains(column: "account_id"))
                let pseudonym = try row.decode(column: "account_pseudonym", as: String.self)
                #expect(pseudonym != erased.description && pseudonym != account.id.description)
            }
            // New events chain on, under the same pseudonym.
            try await app.hale.audit.record(.passkeyRegistered, .init(account: account.id))
            #expect(try await app.hale.audit.verify() == .intact(count: 4))
            #expect(Set(try await app.hale.audit.events(of: account.id).map(\.accountPseudonym)).count == 1)
        }
    }

    @Test("a broken chain stops the migration before it changes anything", arguments: TestDatabase.available)
    func refusesABrokenTrail(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, _) = try await makeAccount(app)
            let id = account.id
            try await Self.onOneConnection(app) { database in
                try await Self.oldTrail(database, [(id, "passkey_registered"), (id, "device_deleted")])
                try await database.update("audit_events").set("event_type", to: "nothing_happened")
                    .where("sequence", .equal, 1).run()
                await #expect(throws: MigrationError.self) {
                    try await M0028_PseudonymizeAuditAccounts().prepare(on: database)
                }
                let row = try await database.raw("SELECT * FROM audit_events WHERE sequence = 2").first()
                #expect(
                    row?.contains(column: "account_id") == true && row?.contains(column: "account_pseudonym") == false)
            }
        }
    }
}
