import Foundation
import SQLKit

/// Stores confirmation requests. Reads a device makes are scoped by its account.
protocol ConfirmationRepository: Sendable {
    /// Stores a new confirmation and, in the same transaction, a `confirmation_request` push to each of the
    /// account's devices that has a push token; returns how many pushes.
    func insert(_ confirmation: Confirmation) async throws -> Int
    /// The confirmation with this id, whoever's it is: for the backend that created it.
    func find(_ id: ConfirmationID) async throws -> Confirmation?
    /// The account's confirmation with this id.
    func find(_ id: ConfirmationID, of account: AccountID) async throws -> Confirmation?
    /// The account's confirmations still waiting at `date`, newest first.
    func pending(of account: AccountID, at date: Date, limit: Int) async throws -> [Confirmation]
    /// Records the answer, and appends `audit`, in one transaction, if the confirmation is still waiting at `date`
    /// and `device` is still active with an unrevoked key; false otherwise. One answer wins, however many arrive at
    /// once. With `webhook`, the answer's webhook is due at once.
    func answer(
        _ id: ConfirmationID, of account: AccountID, decision: ConfirmationMessage.Decision, device: DeviceID,
        signature: String, webhook: Bool, audit: AuditAppend, at date: Date
    ) async throws -> Bool
}

/// `ConfirmationRepository` on SQL.
struct SQLConfirmationRepository: ConfirmationRepository {
    let database: HaleDatabase

    func insert(_ confirmation: Confirmation) async throws -> Int {
        try await database.writeTransaction { database in
            try await database.sql.insert(into: "confirmations")
                .model(confirmation, keyEncodingStrategy: .convertToSnakeCase, nilEncodingStrategy: .asNil).run()
            return try await SQLPushOutboxRepository.enqueueRequest(for: confirmation, in: database)
        }
    }

    func find(_ id: ConfirmationID) async throws -> Confirmation? {
        try await database.sql.select().column("*").from("confirmations").where("id", .equal, id)
            .first(decoding: Confirmation.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func find(_ id: ConfirmationID, of account: AccountID) async throws -> Confirmation? {
        try await database.sql.select().column("*").from("confirmations").where("id", .equal, id)
            .where("account_id", .equal, account)
            .first(decoding: Confirmation.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func pending(of account: AccountID, at date: Date, limit: Int) async throws -> [Confirmation] {
        try await database.sql.select().column("*").from("confirmations").where("account_id", .equal, account)
            .where("decision", .is, SQLLiteral.null).where("expires_at", .greaterThan, date)
            .orderBy("created_at", .descending).limit(limit)
            .all(decoding: Confirmation.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func answer(
        _ id: ConfirmationID, of account: AccountID, decision: ConfirmationMessage.Decision, device: DeviceID,
        signature: String, webhook: Bool, audit: AuditAppend, at date: Date
    ) async throws -> Bool {
        try await database.writeTransaction { database in
            var query: SQLQueryString = """
                UPDATE confirmations SET decision = \(bind: decision.rawValue), answered_at = \(bind: date),
                    answered_by_device_id = \(bind: device), signature = \(bind: signature)
                """
            if webhook {
                let pending = ConfirmationWebhookStatus.pending.rawValue
                query.appendInterpolation(
                    ", webhook_status = \(bind: pending), webhook_next_attempt_at = \(bind: date)" as SQLQueryString)
            }
            // The device's row is share-locked until the answer commits: a deactivation waits for it, or it waits
            // for the deactivation and sees the device deactivated, so no answer is counted after one.
            let deviceLock: SQLQueryString = database.isPostgres ? " FOR SHARE OF d" : ""
            query.appendInterpolation(
                """
                 WHERE id = \(bind: id) AND account_id = \(bind: account) AND decision IS NULL
                    AND expires_at > \(bind: date)
                    AND EXISTS (SELECT 1 FROM devices d JOIN device_keys k ON k.device_id = d.id
                        WHERE d.id = \(bind: device) AND d.account_id = \(bind: account)
                            AND d.deactivated_at IS NULL AND k.revoked_at IS NULL
                        \(deviceLock))
                RETURNING id
                """ as SQLQueryString)
            guard try await database.sql.raw(query).all().count == 1 else { return false }
            try await SQLAuditRepository.append(audit, in: database)
            return true
        }
    }
}
