import Foundation
import SQLKit

/// Writes events into the webhook outbox, in the caller's transaction: the event, and a delivery to each endpoint
/// that takes its type. An event no endpoint takes is not written at all.
enum SQLWebhookOutbox {
    /// Writes `event` with its deliveries; joins the caller's write transaction, or makes one.
    static func enqueue(_ event: WebhookEvent, in database: HaleDatabase) async throws {
        try await database.writeTransaction { database in
            let type = event.type.rawValue
            guard
                let sequence = try await database.sql.raw(
                    """
                    INSERT INTO webhook_events (message_id, type, account_id, payload, created_at)
                    SELECT \(bind: WebhookEvent.newMessageID()), \(bind: type), \(bind: event.account),
                        \(bind: event.payload), \(bind: event.occurredAt)
                    WHERE EXISTS (SELECT 1 FROM webhook_subscriptions
                        WHERE event_type = \(bind: type) OR event_type = '*')
                    RETURNING sequence
                    """
                ).first(decodingColumn: "sequence", as: Int64.self)
            else { return }
            try await database.sql.raw(
                """
                INSERT INTO webhook_deliveries
                    (endpoint_id, event_sequence, ordering_key, status, attempts, next_attempt_at, created_at)
                SELECT DISTINCT endpoint_id, \(bind: sequence), \(bind: orderingKey(event.account)), 'pending', 0,
                    \(bind: event.occurredAt), \(bind: event.occurredAt)
                FROM webhook_subscriptions WHERE event_type = \(bind: type) OR event_type = '*'
                """
            ).run()
        }
    }

    /// Writes `event` for one endpoint only, whatever it subscribes to: `webhook.test`.
    static func enqueue(_ event: WebhookEvent, to endpoint: UUID, in database: HaleDatabase) async throws -> String {
        let messageID = WebhookEvent.newMessageID()
        try await database.writeTransaction { database in
            let sequence = try await database.sql.raw(
                """
                INSERT INTO webhook_events (message_id, type, account_id, payload, created_at)
                VALUES (\(bind: messageID), \(bind: event.type.rawValue), \(bind: event.account),
                    \(bind: event.payload), \(bind: event.occurredAt))
                RETURNING sequence
                """
            ).first(decodingColumn: "sequence", as: Int64.self)
            try await database.sql.raw(
                """
                INSERT INTO webhook_deliveries
                    (endpoint_id, event_sequence, ordering_key, status, attempts, next_attempt_at, created_at)
                VALUES (\(bind: endpoint), \(bind: sequence), \(bind: orderingKey(event.account)), 'pending', 0,
                    \(bind: event.occurredAt), \(bind: event.occurredAt))
                """
            ).run()
        }
        return messageID
    }

    /// An endpoint receives one key's events in order: the account's, or those of no account.
    static func orderingKey(_ account: AccountID?) -> String {
        account?.description ?? "-"
    }
}
