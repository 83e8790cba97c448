import Foundation
import SQLKit

extension SQLMailOutboxRepository {
    /// The account's verified addresses, which every security alert is mailed to.
    static func alertRecipients(of account: AccountID, in database: HaleDatabase) async throws -> [String] {
        try await database.sql.select().column("address").from("email_addresses")
            .where("account_id", .equal, account).orderBy("address").all(decodingColumn: "address", as: String.self)
    }

    /// Writes the alert's mail to each address inside the caller's transaction, keyed by the alert's event and the
    /// address, so the same event never mails an address twice.
    static func enqueue(_ alert: SecurityAlertFanOut, to addresses: [String], in database: HaleDatabase)
        async throws
    {
        guard !addresses.isEmpty else { return }
        var data = ["alertKind": alert.kind.rawValue, "occurredAt": ISO8601.string(alert.occurredAt)]
        data["device"] = try await deviceName(alert.data["deviceId"].flatMap(DeviceID.init), in: database)
        let json = try MailOutbox.json(data)
        let messages = addresses.map { address in
            MailOutbox.message(
                .securityAlert, to: address, account: alert.account, data: json,
                dedupeKey: "\(alert.eventKey):\(address)", at: alert.occurredAt,
                expiresAt: alert.occurredAt.addingTimeInterval(MailOutbox.lifetime))
        }
        _ = try await insert(messages, on: database.sql)
    }

    /// The name the device the event came from goes by ("Chrome on Linux", "Pixel 8"), so the mail says where.
    private static func deviceName(_ device: DeviceID?, in database: HaleDatabase) async throws -> String? {
        guard let device else { return nil }
        return try await database.sql.select().column("name").from("devices").where("id", .equal, device)
            .first(decodingColumn: "name", as: String.self)
    }
}
