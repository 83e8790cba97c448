import Foundation
import SQLKit

/// The claim-and-lease protocol the push and mail outboxes share. A message is `pending` until due, then claimed by
/// one caller (`SKIP LOCKED` on PostgreSQL) as `sending` for a lease, and released as finished or pending again only
/// while that claim holds; a claim that lapses (an instance that died mid-send) is claimed again.
struct SQLOutboxTable: Sendable {
    let database: HaleDatabase
    /// `push_outbox` or `mail_outbox`.
    let table: String

    /// Claims up to `limit` rows due at `date` for `lease`, counting an attempt on each.
    func claimDue<Row: Decodable & Sendable>(at date: Date, lease: Duration, limit: Int, as row: Row.Type)
        async throws -> [Row]
    {
        let claim = UUID()
        let until = date.addingTimeInterval(lease.timeInterval)
        let query: SQLQueryString = """
            UPDATE \(ident: table) SET status = 'sending', claim_id = \(bind: claim), claimed_until = \(bind: until),
            attempts = attempts + 1
            WHERE id IN (SELECT id FROM \(ident: table)
              WHERE (status = 'pending' AND next_attempt_at <= \(bind: date))
                 OR (status = 'sending' AND claimed_until <= \(bind: date))
              ORDER BY next_attempt_at LIMIT \(bind: limit)\(unsafeRaw: database.skipLocked))
            RETURNING *
            """
        return try await database.writeTransaction { database in
            try await database.sql.raw(query).all(decoding: Row.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    /// An update of the row that applies only while claim `claim` holds, and drops the claim.
    func release(_ id: UUID, claim: UUID?) -> SQLUpdateBuilder {
        database.sql.update(table).set("claim_id", to: SQLLiteral.null).set("claimed_until", to: SQLLiteral.null)
            .where("id", .equal, id).where("claim_id", .equal, claim).where("status", .equal, "sending")
    }

    /// Puts a claimed row back to wait until `date`; false when the claim was lost.
    func reschedule(_ id: UUID, claim: UUID?, to date: Date, reason: String) async throws -> Bool {
        try await release(id, claim: claim).set("status", to: "pending").set("last_error", to: reason)
            .set("next_attempt_at", to: date).returning("id").all().count == 1
    }

    /// Deletes rows in `statuses` that finished before `date`; returns how many.
    func purge(_ statuses: [String], finishedBefore date: Date) async throws -> Int {
        try await database.sql.delete(from: table).where("status", .in, statuses)
            .where("finished_at", .lessThan, date).returning("id").all().count
    }
}
