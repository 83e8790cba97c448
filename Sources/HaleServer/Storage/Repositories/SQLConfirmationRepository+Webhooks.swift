import Foundation
import SQLKit

/// A confirmation whose webhook an instance has claimed.
struct ClaimedConfirmationWebhook: Sendable {
    let confirmation: Confirmation
    /// Attempts including this one.
    let attempts: Int
    /// The claim; a result is recorded only while it holds.
    let claimId: UUID
}

/// Where an answer's webhook is.
enum ConfirmationWebhookStatus: String, Sendable {
    /// Waiting for `webhook_next_attempt_at`.
    case pending
    /// Claimed by an instance until `webhook_claimed_until`.
    case sending
    /// The backend answered 2xx.
    case delivered
    /// Out of attempts.
    case dead
}

/// The outbox of confirmation answers' webhooks to the app's backend.
protocol ConfirmationWebhookStore: Sendable {
    /// Claims up to `limit` webhooks due at `date` for `lease`, counting an attempt on each; each is claimed by one
    /// instance at a time.
    func claimWebhooks(at date: Date, lease: TimeInterval, limit: Int) async throws -> [ClaimedConfirmationWebhook]
    /// Ends a claimed webhook as delivered or dead; false when the claim was lost.
    @discardableResult
    func finishWebhook(_ claimed: ClaimedConfirmationWebhook, as status: ConfirmationWebhookStatus, error: String?)
        async throws -> Bool
    /// Puts a claimed webhook back to wait until `date`; false when the claim was lost.
    @discardableResult
    func retryWebhook(_ claimed: ClaimedConfirmationWebhook, at date: Date, error: String) async throws -> Bool
}

extension SQLConfirmationRepository: ConfirmationWebhookStore {
    /// Claims up to `limit` webhooks due at `date` for `lease`, counting an attempt on each; each is claimed by one
    /// instance at a time (`SKIP LOCKED` on PostgreSQL; SQLite has one writer).
    func claimWebhooks(at date: Date, lease: TimeInterval, limit: Int) async throws -> [ClaimedConfirmationWebhook] {
        let claim = UUID()
        let rows = try await database.writeTransaction { database in
            try await database.sql.raw(
                """
                UPDATE confirmations SET webhook_status = 'sending', webhook_claim_id = \(bind: claim),
                    webhook_claimed_until = \(bind: date.addingTimeInterval(lease)),
                    webhook_attempts = webhook_attempts + 1
                WHERE id IN (SELECT id FROM confirmations
                    WHERE (webhook_status = 'pending' AND webhook_next_attempt_at <= \(bind: date))
                       OR (webhook_status = 'sending' AND webhook_claimed_until <= \(bind: date))
                    ORDER BY webhook_next_attempt_at LIMIT \(bind: limit)\(unsafeRaw: database.skipLocked))
                RETURNING *
                """
            ).all()
        }
        return try rows.map { row in
            ClaimedConfirmationWebhook(
                confirmation: try row.decode(model: Confirmation.self, keyDecodingStrategy: .convertFromSnakeCase),
                attempts: try row.decode(column: "webhook_attempts", as: Int.self), claimId: claim)
        }
    }

    /// Ends a claimed webhook as delivered or dead; false when the claim was lost.
    @discardableResult
    func finishWebhook(_ claimed: ClaimedConfirmationWebhook, as status: ConfirmationWebhookStatus, error: String?)
        async throws -> Bool
    {
        try await database.sql.update("confirmations").set("webhook_status", to: status.rawValue)
            .set("webhook_last_error", to: error).set("webhook_claim_id", to: SQLLiteral.null)
            .where("id", .equal, claimed.confirmation.id).where("webhook_claim_id", .equal, claimed.claimId)
            .returning("id").all().count == 1
    }

    /// Puts a claimed webhook back to wait until `date`; false when the claim was lost.
    @discardableResult
    func retryWebhook(_ claimed: ClaimedConfirmationWebhook, at date: Date, error: String) async throws -> Bool {
        try await database.sql.update("confirmations").set(
            "webhook_status", to: ConfirmationWebhookStatus.pending.rawValue
        )
        .set("webhook_next_attempt_at", to: date).set("webhook_last_error", to: error)
        .set("webhook_claim_id", to: SQLLiteral.null)
        .where("id", .equal, claimed.confirmation.id).where("webhook_claim_id", .equal, claimed.claimId)
        .returning("id").all().count == 1
    }

    /// The webhook's status, attempts and last error, for tests and operators.
    func webhookState(of id: ConfirmationID) async throws -> (status: String?, attempts: Int, lastError: String?)? {
        guard
            let row = try await database.sql.select().column("webhook_status").column("webhook_attempts")
                .column("webhook_last_error").from("confirmations").where("id", .equal, id).first()
        else { return nil }
        return (
            try row.decode(column: "webhook_status", as: String?.self),
            try row.decode(column: "webhook_attempts", as: Int.self),
            try row.decode(column: "webhook_last_error", as: String?.self)
        )
    }
}
