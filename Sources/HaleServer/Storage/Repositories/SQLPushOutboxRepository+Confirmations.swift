import Foundation
import SQLKit

extension SQLPushOutboxRepository {
    /// Writes a `confirmation_request` to each of the account's active devices with a push token, inside the
    /// caller's transaction: seed 002's data fields, `actionPayload` as the canonical JSON text the device signs.
    /// Each is kept until the confirmation expires, and replaces an older push of the same confirmation.
    @discardableResult
    static func enqueueRequest(for confirmation: Confirmation, in database: HaleDatabase) async throws -> Int {
        let data = [
            "type": PushKind.confirmationRequest.rawValue, "confirmationId": confirmation.id.description,
            "actionType": confirmation.actionType, "actionPayload": confirmation.actionPayload,
            "expiresAt": ISO8601.string(confirmation.expiresAt),
        ]
        let json = String(
            decoding: try JSONSerialization.data(withJSONObject: data, options: [.sortedKeys]), as: UTF8.self)
        let messages = try await recipients(of: confirmation.accountId, in: database).map { recipient in
            PushOutboxMessage(
                id: UUID(), dedupeKey: "confirmation:\(confirmation.id):\(recipient.device)",
                accountId: confirmation.accountId, deviceId: recipient.device, gateway: recipient.gateway.rawValue,
                kind: PushKind.confirmationRequest.rawValue, data: json, collapseId: confirmation.id.description,
                status: PushOutboxMessage.Status.pending.rawValue, attempts: 0,
                nextAttemptAt: confirmation.createdAt, expiresAt: confirmation.expiresAt, claimId: nil,
                claimedUntil: nil, lastError: nil, createdAt: confirmation.createdAt, finishedAt: nil)
        }
        return try await insert(messages, on: database.sql)
    }
}
