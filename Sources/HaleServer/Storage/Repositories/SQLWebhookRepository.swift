import Foundation
import SQLKit

/// A delivery an instance has claimed, with what sending it needs.
struct ClaimedWebhookDelivery: Sendable {
    let id: Int64
    /// The claim; a result is recorded only while it holds.
    let claim: UUID
    /// Attempts including this one.
    let attempts: Int
    let endpoint: WebhookEndpointRecord
    let messageID: String
    let payload: String
}

/// `WebhookRepository` on SQL. Events are written by `SQLWebhookOutbox`, in the changes' transactions.
struct SQLWebhookRepository: WebhookRepository {
    let database: HaleDatabase

    /// Queues `event` for `endpoint` alone, whatever it subscribes to; returns its message id.
    func enqueue(_ event: WebhookEvent, to endpoint: UUID) async throws -> String {
        try await SQLWebhookOutbox.enqueue(event, to: endpoint, in: database)
    }

    func insert(_ endpoint: WebhookEndpointRecord, eventTypes: [String]) async throws {
        try await database.writeTransaction { database in
            try await database.sql.insert(into: "webhook_endpoints")
                .model(endpoint, keyEncodingStrategy: .convertToSnakeCase).run()
            for type in eventTypes {
                try await database.sql.insert(into: "webhook_subscriptions").columns("endpoint_id", "event_type")
                    .values(SQLBind(endpoint.id), SQLBind(type)).run()
            }
        }
    }

    func endpoints() async throws -> [(record: WebhookEndpointRecord, eventTypes: [String])] {
        let records = try await database.sql.select().column("*").from("webhook_endpoints").orderBy("created_at")
            .all(decoding: WebhookEndpointRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        let subscriptions = try await database.sql.select().columns("endpoint_id", "event_type")
            .from("webhook_subscriptions").orderBy("event_type").all()
        var types: [UUID: [String]] = [:]
        for row in subscriptions {
            types[try row.decode(column: "endpoint_id", as: UUID.self), default: []]
                .append(try row.decode(column: "event_type", as: String.self))
        }
        return records.map { ($0, types[$0.id] ?? []) }
    }

    func endpoint(_ id: UUID) async throws -> WebhookEndpointRecord? {
        try await database.sql.select().column("*").from("webhook_endpoints").where("id", .equal, id)
            .first(decoding: WebhookEndpointRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func count() async throws -> Int {
        try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("webhook_endpoints").first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Deletes the endpoint with its subscriptions and deliveries; false when there was none.
    func delete(_ id: UUID) async throws -> Bool {
        try await database.writeTransaction { database in
            try await database.sql.delete(from: "webhook_subscriptions").where("endpoint_id", .equal, id).run()
            try await database.sql.raw(
                """
                DELETE FROM webhook_attempts WHERE delivery_id IN (
                    SELECT id FROM webhook_deliveries WHERE endpoint_id = \(bind: id))
                """
            ).run()
            try await database.sql.delete(from: "webhook_deliveries").where("endpoint_id", .equal, id).run()
            return try await database.sql.delete(from: "webhook_endpoints").where("id", .equal, id)
                .returning("id").all().count == 1
        }
    }

    /// Replaces the endpoint's secret, keeping the one before it until `until`.
    func rotate(_ id: UUID, to sealed: String, keeping previous: String, until: Date) async throws -> Bool {
        try await database.sql.update("webhook_endpoints").set("secret_sealed", to: sealed)
            .set("previous_secret_sealed", to: previous).set("previous_secret_until", to: until)
            .where("id", .equal, id).returning("id").all().count == 1
    }

    /// Claims up to `limit` deliveries due at `date` for `lease`, counting an attempt on each. A delivery waits while
    /// an earlier event of its endpoint and key is unfinished, so an endpoint receives an account's events in order;
    /// on PostgreSQL each is claimed by one instance (`SKIP LOCKED`), and its earlier ones, pending or claimed, keep
    /// every other instance from claiming it.
    func claimDue(at date: Date, lease: Duration, limit: Int) async throws -> [ClaimedWebhookDelivery] {
        let claim = UUID()
        let until = date.addingTimeInterval(lease.timeInterval)
        let claimed = try await database.writeTransaction { database in
            try await database.sql.raw(
                """
                UPDATE webhook_deliveries SET status = 'sending', claim_id = \(bind: claim),
                    claimed_until = \(bind: until), attempts = attempts + 1
                WHERE id IN (SELECT d.id FROM webhook_deliveries d
                    WHERE ((d.status = 'pending' AND d.next_attempt_at <= \(bind: date))
                        OR (d.status = 'sending' AND d.claimed_until <= \(bind: date)))
                      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
                        WHERE e.endpoint_id = d.endpoint_id AND e.ordering_key = d.ordering_key
                          AND e.event_sequence < d.event_sequence AND e.status IN ('pending', 'sending'))
                    ORDER BY d.event_sequence LIMIT \(bind: limit)\(unsafeRaw: database.skipLocked))
                RETURNING id, attempts
                """
            ).all()
        }
        let attempts = try Dictionary(
            claimed.map {
                (try $0.decode(column: "id", as: Int64.self), try $0.decode(column: "attempts", as: Int.self))
            },
            uniquingKeysWith: { first, _ in first })
        guard !attempts.isEmpty else { return [] }
        let rows = try await database.sql.raw(
            """
            SELECT d.id, ev.message_id, ev.payload, ep.id AS endpoint_id, ep.url, ep.description, ep.secret_sealed,
                ep.previous_secret_sealed, ep.previous_secret_until, ep.created_at
            FROM webhook_deliveries d JOIN webhook_events ev ON ev.sequence = d.event_sequence
                JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
            WHERE d.id IN \(SQLBind.group(attempts.keys.map { $0 as any Encodable & Sendable }))
            ORDER BY d.event_sequence
            """
        ).all()
        return try rows.map { row in
            let id = try row.decode(column: "id", as: Int64.self)
            return ClaimedWebhookDelivery(
                id: id, claim: claim, attempts: attempts[id] ?? 1,
                endpoint: WebhookEndpointRecord(
                    id: try row.decode(column: "endpoint_id", as: UUID.self),
                    url: try row.decode(column: "url", as: String.self),
                    description: try row.decode(column: "description", as: String.self),
                    secretSealed: try row.decode(column: "secret_sealed", as: String.self),
                    previousSecretSealed: try row.decode(column: "previous_secret_sealed", as: String?.self),
                    previousSecretUntil: try row.decode(column: "previous_secret_until", as: Date?.self),
                    createdAt: try row.decode(column: "created_at", as: Date.self)),
                messageID: try row.decode(column: "message_id", as: String.self),
                payload: try row.decode(column: "payload", as: String.self))
        }
    }

    /// Records the try and ends or reschedules the delivery, while the claim holds; false when it was lost.
    @discardableResult
    func record(
        _ claimed: ClaimedWebhookDelivery, _ outcome: WebhookDeliveryOutcome, attempt: WebhookDelivery.Attempt
    ) async throws -> Bool {
        try await database.writeTransaction { database in
            let update = database.sql.update("webhook_deliveries").set("claim_id", to: SQLLiteral.null)
                .set("claimed_until", to: SQLLiteral.null).set("last_status_code", to: attempt.statusCode)
                .set("last_error", to: attempt.error)
                .where("id", .equal, claimed.id).where("claim_id", .equal, claimed.claim)
                .where("status", .equal, "sending")
            switch outcome {
            case .delivered: update.set("status", to: "delivered").set("finished_at", to: attempt.attemptedAt)
            case .retry(let date): update.set("status", to: "pending").set("next_attempt_at", to: date)
            case .failed: update.set("status", to: "failed").set("finished_at", to: attempt.attemptedAt)
            }
            guard try await update.returning("id").all().count == 1 else { return false }
            try await database.sql.insert(into: "webhook_attempts")
                .columns("delivery_id", "attempted_at", "status_code", "error", "milliseconds")
                .values(
                    SQLBind(claimed.id), SQLBind(attempt.attemptedAt), SQLBind(attempt.statusCode),
                    SQLBind(attempt.error), SQLBind(attempt.milliseconds)
                ).run()
            return true
        }
    }

    /// Sends a finished delivery again, from its first try of the schedule; false when there is no finished one.
    func replay(_ id: Int64, at date: Date) async throws -> Bool {
        try await database.sql.update("webhook_deliveries").set("status", to: "pending").set("attempts", to: 0)
            .set("next_attempt_at", to: date).set("finished_at", to: SQLLiteral.null)
            .where("id", .equal, id).where("status", .in, ["delivered", "failed"])
            .returning("id").all().count == 1
    }

    /// The newest deliveries, of one endpoint and in one status when given, each with its attempts.
    func deliveries(endpoint: UUID?, status: String?, limit: Int) async throws -> [WebhookDelivery] {
        var filter: SQLQueryString = ""
        if let endpoint { filter = filter + " AND d.endpoint_id = \(bind: endpoint)" }
        if let status { filter = filter + " AND d.status = \(bind: status)" }
        let query = database.sql.raw(
            """
            SELECT d.id, d.endpoint_id, d.status, d.attempts, d.next_attempt_at, d.last_status_code, d.last_error,
                d.created_at, d.finished_at, ev.message_id, ev.type, ev.account_id
            FROM webhook_deliveries d JOIN webhook_events ev ON ev.sequence = d.event_sequence
            WHERE 1 = 1\(filter) ORDER BY d.id DESC LIMIT \(bind: limit)
            """)
        var deliveries = try await query.all().map { row in
            WebhookDelivery(
                id: try row.decode(column: "id", as: Int64.self),
                endpointId: try row.decode(column: "endpoint_id", as: UUID.self),
                messageId: try row.decode(column: "message_id", as: String.self),
                eventType: try row.decode(column: "type", as: String.self),
                accountId: try row.decode(column: "account_id", as: UUID?.self),
                status: try row.decode(column: "status", as: String.self),
                attempts: try row.decode(column: "attempts", as: Int.self),
                nextAttemptAt: try row.decode(column: "next_attempt_at", as: Date.self),
                lastStatusCode: try row.decode(column: "last_status_code", as: Int?.self),
                lastError: try row.decode(column: "last_error", as: String?.self),
                createdAt: try row.decode(column: "created_at", as: Date.self),
                finishedAt: try row.decode(column: "finished_at", as: Date?.self))
        }
        guard !deliveries.isEmpty else { return [] }
        let attempts = try await database.sql.select().column("*").from("webhook_attempts")
            .where("delivery_id", .in, deliveries.map { $0.id }).orderBy("id").all()
        var byDelivery: [Int64: [WebhookDelivery.Attempt]] = [:]
        for row in attempts {
            byDelivery[try row.decode(column: "delivery_id", as: Int64.self), default: []].append(
                WebhookDelivery.Attempt(
                    attemptedAt: try row.decode(column: "attempted_at", as: Date.self),
                    statusCode: try row.decode(column: "status_code", as: Int?.self),
                    error: try row.decode(column: "error", as: String?.self),
                    milliseconds: try row.decode(column: "milliseconds", as: Int.self)))
        }
        for index in deliveries.indices { deliveries[index].history = byDelivery[deliveries[index].id] ?? [] }
        return deliveries
    }

    /// Deletes up to `limit` events written before `date` whose deliveries have all finished, with their
    /// deliveries and attempts, in one short transaction; returns how many events.
    func purge(writtenBefore date: Date, limit: Int) async throws -> Int {
        try await database.writeTransaction { database in
            let sequences = try await database.sql.raw(
                """
                SELECT sequence FROM webhook_events WHERE created_at < \(bind: date) AND NOT EXISTS (
                    SELECT 1 FROM webhook_deliveries d WHERE d.event_sequence = webhook_events.sequence
                        AND d.status IN ('pending', 'sending'))
                ORDER BY sequence LIMIT \(bind: limit)
                """
            ).all(decodingColumn: "sequence", as: Int64.self)
            guard !sequences.isEmpty else { return 0 }
            let deliveries = try await database.sql.select().column("id").from("webhook_deliveries")
                .where("event_sequence", .in, sequences).all(decodingColumn: "id", as: Int64.self)
            if !deliveries.isEmpty {
                try await database.sql.delete(from: "webhook_attempts").where("delivery_id", .in, deliveries).run()
            }
            try await database.sql.delete(from: "webhook_deliveries").where("event_sequence", .in, sequences).run()
            try await database.sql.delete(from: "webhook_events").where("sequence", .in, sequences).run()
            return sequences.count
        }
    }
}
