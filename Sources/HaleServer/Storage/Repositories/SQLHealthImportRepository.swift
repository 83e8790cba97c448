import Foundation
import SQLKit

/// `HealthImportRepository` on SQL.
struct SQLHealthImportRepository: HealthImportRepository {
    let database: HaleDatabase

    private static let active = [
        HealthImport.Status.uploading.rawValue, HealthImport.Status.queued.rawValue,
        HealthImport.Status.running.rawValue,
    ]

    func reserve(_ record: HealthImport) async throws -> UUID? {
        try await database.writeTransaction { database in
            // `FOR UPDATE` below locks the rows it finds, and there are none to find when two uploads race: the
            // account's row serialises them (SQLite's write transactions are serial already).
            try await SQLFitnessChallengeRepository.lock(record.accountId, on: database)
            let active = try await database.sql.raw(
                """
                SELECT id FROM health_imports WHERE account_id = \(bind: record.accountId)
                AND status IN ('uploading', 'queued', 'running')\(unsafeRaw: database.isPostgres ? " FOR UPDATE" : "")
                """
            ).first()
            if let active { return try active.decode(column: "id", as: UUID.self) }
            try await database.sql.insert(into: "health_imports").columns(Self.columns)
                .values(try Self.bindings(record)).run()
            return nil
        }
    }

    func touchUpload(_ id: UUID, of account: AccountID, at date: Date) async throws {
        try await uploading(id, of: account).set("updated_at", to: date).run()
    }

    func queueUpload(_ id: UUID, of account: AccountID, bytes: Int64, at date: Date) async throws -> HealthImport? {
        try await uploading(id, of: account)
            .set("status", to: HealthImport.Status.queued.rawValue).set("bytes", to: bytes)
            .set("queued_at", to: date).set("updated_at", to: date)
            .returning("*").first().map(Self.record)
    }

    func abandonUpload(_ id: UUID, of account: AccountID) async throws {
        try await database.sql.delete(from: "health_imports").where("id", .equal, id)
            .where("account_id", .equal, account).where("status", .equal, HealthImport.Status.uploading.rawValue).run()
    }

    func abandonUploads(idleSince date: Date) async throws -> [UUID] {
        let rows = try await database.sql.delete(from: "health_imports")
            .where("status", .equal, HealthImport.Status.uploading.rawValue).where("updated_at", .lessThan, date)
            .returning("id").all()
        return try rows.map { try $0.decode(column: "id", as: UUID.self) }
    }

    private func uploading(_ id: UUID, of account: AccountID) -> SQLUpdateBuilder {
        database.sql.update("health_imports").where("id", .equal, id).where("account_id", .equal, account)
            .where("status", .equal, HealthImport.Status.uploading.rawValue)
    }

    func find(_ id: UUID, of account: AccountID) async throws -> HealthImport? {
        try await database.sql.select().column("*").from("health_imports").where("id", .equal, id)
            .where("account_id", .equal, account).first().map(Self.record)
    }

    func imports(of account: AccountID, limit: Int) async throws -> [HealthImport] {
        try await database.sql.select().column("*").from("health_imports").where("account_id", .equal, account)
            .orderBy("created_at", .descending).limit(limit).all().map(Self.record)
    }

    func claimNext(at date: Date, lease: Duration) async throws -> ClaimedHealthImport? {
        let claim = UUID()
        let until = date.addingTimeInterval(lease.timeInterval)
        let row = try await database.writeTransaction { database in
            try await database.sql.raw(
                """
                UPDATE health_imports SET status = 'running', claim_id = \(bind: claim),
                claimed_until = \(bind: until), attempts = attempts + 1, updated_at = \(bind: date)
                WHERE id IN (SELECT id FROM health_imports
                  WHERE status = 'queued' OR (status = 'running' AND claimed_until <= \(bind: date))
                  ORDER BY queued_at, created_at LIMIT 1\(unsafeRaw: database.skipLocked))
                RETURNING *
                """
            ).first()
        }
        return try row.map { ClaimedHealthImport(record: try Self.record($0), claim: claim) }
    }

    func othersWaiting(besides account: AccountID, at date: Date) async throws -> Bool {
        let row = try await database.sql.raw(
            """
            SELECT 1 AS waiting FROM health_imports WHERE account_id <> \(bind: account)
            AND (status = 'queued' OR (status = 'running' AND claimed_until <= \(bind: date))) LIMIT 1
            """
        ).first()
        return row != nil
    }

    func progress(
        _ claimed: ClaimedHealthImport, phase: String, recordsRead: Int, fraction: Double, at date: Date,
        lease: Duration
    ) async throws -> Bool {
        try await updateClaimed(claimed) { update in
            update.set("phase", to: phase).set("records_read", to: recordsRead).set("fraction", to: fraction)
                .set("updated_at", to: date).set("claimed_until", to: date.addingTimeInterval(lease.timeInterval))
        }
    }

    func checkpoint(
        _ claimed: ClaimedHealthImport, _ checkpoint: AppleHealthImport.Checkpoint, at date: Date,
        in work: UnitOfWork
    ) async throws {
        let text = try Self.text(of: checkpoint)
        let updated = try await SQLHealthImportRepository(database: work.database).updateClaimed(claimed) { update in
            Self.set(checkpoint, summary: text, on: update).set("updated_at", to: date)
        }
        guard updated else { throw HealthImportClaimLost() }
    }

    func finish(
        _ claimed: ClaimedHealthImport, as status: HealthImport.Status, checkpoint: AppleHealthImport.Checkpoint,
        error: (code: String, message: String)?, at date: Date
    ) async throws -> Bool {
        let text = try Self.text(of: checkpoint)
        let event = WebhookEvent.importEnded(
            claimed.record, as: status, summary: checkpoint.summary, error: error?.code, at: date)
        return try await database.writeTransaction { database in
            let finished = try await SQLHealthImportRepository(database: database).updateClaimed(claimed) { update in
                Self.set(checkpoint, summary: text, on: update.set("status", to: status.rawValue))
                    .set("error_code", to: error?.code).set("error_message", to: error?.message)
                    .set("completed_at", to: date).set("updated_at", to: date).set("claim_id", to: SQLLiteral.null)
                    .set("claimed_until", to: SQLLiteral.null)
            }
            if finished, let event { try await SQLWebhookOutbox.enqueue(event, in: database) }
            return finished
        }
    }

    func release(_ claimed: ClaimedHealthImport, at date: Date, requeued: Bool) async throws -> Bool {
        try await updateClaimed(claimed) { update in
            // Not a failed pass, so it does not count towards the import's attempts.
            let released = update.set("status", to: HealthImport.Status.queued.rawValue)
                .set("claim_id", to: SQLLiteral.null).set("claimed_until", to: SQLLiteral.null)
                .set("updated_at", to: date).set(SQLIdentifier("attempts"), to: SQLRaw("attempts - 1"))
            return requeued ? released.set("queued_at", to: date) : released
        }
    }

    func unfinishedIDs() async throws -> Set<UUID> {
        let rows = try await database.sql.select().column("id").from("health_imports")
            .where("status", .in, Self.active).all()
        return Set(try rows.map { try $0.decode(column: "id", as: UUID.self) })
    }

    /// Applies `set` to the import while this caller's claim on it holds; returns whether it did.
    private func updateClaimed(
        _ claimed: ClaimedHealthImport, _ set: (SQLUpdateBuilder) -> SQLUpdateBuilder
    ) async throws -> Bool {
        let rows = try await set(database.sql.update("health_imports"))
            .where("id", .equal, claimed.record.id).where("claim_id", .equal, claimed.claim)
            .returning("id").all()
        return !rows.isEmpty
    }

    private static func set(
        _ checkpoint: AppleHealthImport.Checkpoint, summary: String, on update: SQLUpdateBuilder
    ) -> SQLUpdateBuilder {
        update.set("records_committed", to: checkpoint.events).set("resume_offset", to: checkpoint.offset)
            .set("summary", to: summary).set("checked_offset", to: checkpoint.check.offset)
            .set("checked_records", to: checkpoint.check.records).set("check_complete", to: checkpoint.check.complete)
    }

    private static let columns = [
        "id", "account_id", "status", "bytes", "time_zone", "created_at", "updated_at", "attempts", "records_read",
        "fraction", "records_committed", "summary", "queued_at",
    ]

    private static func bindings(_ record: HealthImport) throws -> [any SQLExpression] {
        [
            SQLBind(record.id), SQLBind(record.accountId), SQLBind(record.status.rawValue), SQLBind(record.bytes),
            SQLBind(record.timeZone), SQLBind(record.createdAt), SQLBind(record.updatedAt), SQLBind(0),
            SQLBind(record.recordsRead), SQLBind(record.fraction), SQLBind(record.checkpoint.events),
            SQLBind(try text(of: record.checkpoint)), SQLBind(record.createdAt),
        ]
    }

    private static func text(of checkpoint: AppleHealthImport.Checkpoint) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(checkpoint.summary), as: UTF8.self)
    }

    private static func record(_ row: any SQLRow) throws -> HealthImport {
        let summary = try JSONDecoder().decode(
            AppleHealthImport.Summary.self, from: Data(try row.decode(column: "summary", as: String.self).utf8))
        var checkpoint = AppleHealthImport.Checkpoint()
        checkpoint.events = try row.decode(column: "records_committed", as: Int.self)
        checkpoint.offset = try row.decode(column: "resume_offset", as: Int64.self)
        checkpoint.summary = summary
        checkpoint.check.offset = try row.decode(column: "checked_offset", as: Int64.self)
        checkpoint.check.records = try row.decode(column: "checked_records", as: Int.self)
        checkpoint.check.complete = try row.decode(column: "check_complete", as: Bool.self)
        let status = try row.decode(column: "status", as: String.self)
        let code = try row.decode(column: "error_code", as: String?.self)
        let message = try row.decode(column: "error_message", as: String?.self)
        return HealthImport(
            id: try row.decode(column: "id", as: UUID.self),
            accountId: AccountID(try row.decode(column: "account_id", as: UUID.self)),
            status: HealthImport.Status(rawValue: status) ?? .failed,
            bytes: try row.decode(column: "bytes", as: Int64.self),
            timeZone: try row.decode(column: "time_zone", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            updatedAt: try row.decode(column: "updated_at", as: Date.self),
            completedAt: try row.decode(column: "completed_at", as: Date?.self),
            phase: try row.decode(column: "phase", as: String?.self),
            recordsRead: try row.decode(column: "records_read", as: Int.self),
            fraction: try row.decode(column: "fraction", as: Double.self), checkpoint: checkpoint, errorCode: code,
            errorMessage: message, attempts: try row.decode(column: "attempts", as: Int.self))
    }
}
