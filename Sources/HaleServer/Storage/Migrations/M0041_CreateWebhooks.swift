import Fluent
import SQLKit

/// Events for the app's backend and their signed deliveries (Standard Webhooks).
///
/// - `webhook_endpoints`: where events go, with the secret that signs them (sealed under the key-encryption key) and,
///   for a day after a rotation, the one before it.
/// - `webhook_subscriptions`: the event types each endpoint takes (`*` for every one).
/// - `webhook_events`: the outbox. An event is written in the transaction of the change it reports, and only when an
///   endpoint takes its type; `sequence` orders an account's events.
/// - `webhook_deliveries`: one per event and endpoint, written with the event, claimed and sent in the background;
///   an endpoint receives an account's events in `event_sequence` order.
/// - `webhook_attempts`: each try of a delivery: when, what the endpoint answered, how long it took.
/// - `fitness_challenge_members.completed_at`: when a member first reached the goal (`challenge.completed`).
struct M0041_CreateWebhooks: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("webhook_endpoints")
            .field("id", .uuid, .identifier(auto: false))
            .field("url", .string, .required)
            .field("description", .string, .required)
            .field("secret_sealed", .string, .required)
            .field("previous_secret_sealed", .string)
            .field("previous_secret_until", .datetime)
            .field("created_at", .datetime, .required)
            .create()
        try await database.schema("webhook_subscriptions")
            .field("endpoint_id", .uuid, .required, .references("webhook_endpoints", "id", onDelete: .cascade))
            .field("event_type", .string, .required)
            .unique(on: "endpoint_id", "event_type")
            .create()
        try await database.schema("webhook_events")
            .field("sequence", .int64, .identifier(auto: true))
            .field("message_id", .string, .required)
            .field("type", .string, .required)
            // No foreign key: account.deleted outlives the account.
            .field("account_id", .uuid)
            .field("payload", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "message_id")
            .create()
        try await database.schema("webhook_deliveries")
            .field("id", .int64, .identifier(auto: true))
            .field("endpoint_id", .uuid, .required, .references("webhook_endpoints", "id", onDelete: .cascade))
            .field("event_sequence", .int64, .required, .references("webhook_events", "sequence", onDelete: .cascade))
            // The account's id, or `-` for an event of no account: an endpoint gets one key's events in order.
            .field("ordering_key", .string, .required)
            .field("status", .string, .required)
            .field("attempts", .int64, .required)
            .field("next_attempt_at", .datetime, .required)
            .field("claim_id", .uuid)
            .field("claimed_until", .datetime)
            .field("last_status_code", .int64)
            .field("last_error", .string)
            .field("created_at", .datetime, .required)
            .field("finished_at", .datetime)
            .unique(on: "endpoint_id", "event_sequence")
            .create()
        try await database.schema("webhook_attempts")
            .field("id", .int64, .identifier(auto: true))
            .field("delivery_id", .int64, .required, .references("webhook_deliveries", "id", onDelete: .cascade))
            .field("attempted_at", .datetime, .required)
            .field("status_code", .int64)
            .field("error", .string)
            .field("milliseconds", .int64, .required)
            .create()
        try await database.schema("fitness_challenge_members").field("completed_at", .datetime).update()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "webhook_deliveries_status_next_attempt_at").on("webhook_deliveries")
            .column("status").column("next_attempt_at").run()
        try await sql.create(index: "webhook_deliveries_order").on("webhook_deliveries")
            .column("endpoint_id").column("ordering_key").column("event_sequence").run()
        try await sql.create(index: "webhook_deliveries_event_sequence").on("webhook_deliveries")
            .column("event_sequence").run()
        try await sql.create(index: "webhook_attempts_delivery_id").on("webhook_attempts").column("delivery_id").run()
        try await sql.create(index: "webhook_events_created_at").on("webhook_events").column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("fitness_challenge_members").deleteField("completed_at").update()
        for table in ["webhook_attempts", "webhook_deliveries", "webhook_events", "webhook_subscriptions"] {
            try await database.schema(table).delete()
        }
        try await database.schema("webhook_endpoints").delete()
    }
}
