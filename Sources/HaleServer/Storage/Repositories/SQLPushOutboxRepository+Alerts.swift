import Foundation
import SQLKit

extension SQLPushOutboxRepository {
    /// A device an alert goes to, and the gateway its token is for.
    struct AlertRecipient: Sendable {
        let device: DeviceID
        let gateway: PushGateway
    }

    /// The alert's recipients: the account's active devices with a push token, except the excluded ones. An APNs
    /// token is preferred where a device has both.
    static func recipients(of alert: SecurityAlertFanOut, in database: HaleDatabase) async throws -> [AlertRecipient] {
        try await recipients(
            of: alert.account, excluding: alert.excluding, excludingTokens: alert.excludingTokens, in: database)
    }

    /// The account's active devices with a push token, except the excluded ones, each with the gateway of its token;
    /// an APNs token is preferred where a device has both.
    static func recipients(
        of account: AccountID, excluding: Set<DeviceID> = [], excludingTokens: Set<String> = [],
        in database: HaleDatabase
    ) async throws -> [AlertRecipient] {
        let devices = try await database.sql.select().column("id").column("fcm_token").column("apns_token")
            .from("devices").where("account_id", .equal, account).where("deactivated_at", .is, SQLLiteral.null)
            .all(decoding: DeviceTokens.self, keyDecodingStrategy: .convertFromSnakeCase)
        return devices.compactMap { device in
            let tokens = [device.fcmToken, device.apnsToken].compactMap { $0 }
            guard !excluding.contains(device.id), excludingTokens.isDisjoint(with: tokens) else { return nil }
            if device.apnsToken != nil { return AlertRecipient(device: device.id, gateway: .apns) }
            if device.fcmToken != nil { return AlertRecipient(device: device.id, gateway: .fcm) }
            return nil
        }
    }

    /// Writes one message per recipient inside the caller's transaction, keyed by the alert's event and the device,
    /// so the same event never enqueues twice.
    @discardableResult
    static func enqueue(_ alert: SecurityAlertFanOut, to recipients: [AlertRecipient], in database: HaleDatabase)
        async throws -> Int
    {
        var data = alert.data
        data["type"] = PushKind.securityAlert.rawValue
        data["alertKind"] = alert.kind.rawValue
        let json = String(
            decoding: try JSONSerialization.data(withJSONObject: data, options: [.sortedKeys]), as: UTF8.self)
        let messages = recipients.map { recipient in
            PushOutboxMessage(
                id: UUID(), dedupeKey: "\(alert.eventKey):\(recipient.device)", accountId: alert.account,
                deviceId: recipient.device, gateway: recipient.gateway.rawValue, kind: PushKind.securityAlert.rawValue,
                data: json, collapseId: nil, status: PushOutboxMessage.Status.pending.rawValue, attempts: 0,
                nextAttemptAt: alert.occurredAt, expiresAt: alert.expiresAt, claimId: nil, claimedUntil: nil,
                lastError: nil, createdAt: alert.occurredAt, finishedAt: nil)
        }
        return try await insert(messages, on: database.sql)
    }

    /// Finds the alert's recipients and writes their messages, inside the caller's transaction.
    @discardableResult
    static func enqueue(_ alert: SecurityAlertFanOut, in database: HaleDatabase) async throws -> Int {
        try await enqueue(alert, to: try await recipients(of: alert, in: database), in: database)
    }
}
