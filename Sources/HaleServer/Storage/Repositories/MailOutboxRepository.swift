import Foundation
import SQLKit

/// Stores the mail outbox.
protocol MailOutboxRepository: Sendable {
    /// Writes messages, leaving out any whose dedupe key is written already; returns how many were new.
    @discardableResult
    func enqueue(_ messages: [MailOutboxMessage]) async throws -> Int
    /// Claims up to `limit` messages due at `date` for `lease`, counting an attempt on each; each message is claimed
    /// by one caller at a time, on any instance.
    func claimDue(at date: Date, lease: Duration, limit: Int) async throws -> [MailOutboxMessage]
    /// Ends a claimed message as sent or dead and empties its data; false when the claim was lost.
    @discardableResult
    func finish(_ message: MailOutboxMessage, as status: MailOutboxMessage.Status, reason: String?, at date: Date)
        async throws -> Bool
    /// Puts a claimed message back to wait until `date`; false when the claim was lost.
    @discardableResult
    func reschedule(_ message: MailOutboxMessage, to date: Date, reason: String) async throws -> Bool
    /// Deletes messages that finished before `date`; returns how many.
    func purgeFinished(before date: Date) async throws -> Int
    /// How many mails of `kinds` were written to `recipient` since `date`.
    func count(of kinds: [MailKind], to recipient: String, since date: Date) async throws -> Int
}

/// `MailOutboxRepository` on SQL.
struct SQLMailOutboxRepository: MailOutboxRepository {
    let database: HaleDatabase

    @discardableResult
    func enqueue(_ messages: [MailOutboxMessage]) async throws -> Int {
        try await Self.insert(messages, on: database.sql)
    }

    static func insert(_ messages: [MailOutboxMessage], on sql: any SQLDatabase) async throws -> Int {
        guard !messages.isEmpty else { return 0 }
        return try await sql.insert(into: "mail_outbox")
            .models(messages, keyEncodingStrategy: .convertToSnakeCase, nilEncodingStrategy: .asNil)
            .ignoringConflicts(with: "dedupe_key").returning("id").all().count
    }

    private var outbox: SQLOutboxTable { SQLOutboxTable(database: database, table: "mail_outbox") }

    func claimDue(at date: Date, lease: Duration, limit: Int) async throws -> [MailOutboxMessage] {
        try await outbox.claimDue(at: date, lease: lease, limit: limit, as: MailOutboxMessage.self)
    }

    func finish(_ message: MailOutboxMessage, as status: MailOutboxMessage.Status, reason: String?, at date: Date)
        async throws -> Bool
    {
        try await outbox.release(message.id, claim: message.claimId).set("status", to: status.rawValue)
            .set("last_error", to: reason).set("data", to: "").set("finished_at", to: date).returning("id").all()
            .count == 1
    }

    func reschedule(_ message: MailOutboxMessage, to date: Date, reason: String) async throws -> Bool {
        try await outbox.reschedule(message.id, claim: message.claimId, to: date, reason: reason)
    }

    func purgeFinished(before date: Date) async throws -> Int {
        try await outbox.purge([MailOutboxMessage.Status.sent, .dead].map(\.rawValue), finishedBefore: date)
    }

    func count(of kinds: [MailKind], to recipient: String, since date: Date) async throws -> Int {
        try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("mail_outbox").where("recipient", .equal, recipient).where("kind", .in, kinds.map(\.rawValue))
            .where("created_at", .greaterThanOrEqual, date)
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }
}
