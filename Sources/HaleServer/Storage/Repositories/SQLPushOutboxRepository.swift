import Foundation
import SQLKit

/// `PushOutboxRepository` on SQL.
struct SQLPushOutboxRepository: PushOutboxRepository {
    let database: HaleDatabase

    func enqueue(_ messages: [PushOutboxMessage]) async throws -> Int {
        try await Self.insert(messages, on: database.sql)
    }

    private var outbox: SQLOutboxTable { SQLOutboxTable(database: database, table: "push_outbox") }

    func claimDue(at date: Date, lease: Duration, limit: Int) async throws -> [ClaimedPush] {
        let claimed = try await outbox.claimDue(at: date, lease: lease, limit: limit, as: PushOutboxMessage.self)
        guard !claimed.isEmpty else { return [] }
        let tokens = try await activeTokens(of: Set(claimed.map(\.deviceId)))
        return claimed.map { message in
            let gateway = PushGateway(rawValue: message.gateway)
            return ClaimedPush(message: message, token: gateway.flatMap { tokens[message.deviceId]?[$0] })
        }
    }

    /// A device's push tokens.
    struct DeviceTokens: Decodable {
        let id: DeviceID
        let fcmToken: String?
        let apnsToken: String?
    }

    private func activeTokens(of devices: Set<DeviceID>) async throws -> [DeviceID: [PushGateway: String]] {
        let rows = try await database.sql.select().column("id").column("fcm_token").column("apns_token")
            .from("devices").where("id", .in, Array(devices)).where("deactivated_at", .is, SQLLiteral.null)
            .all(decoding: DeviceTokens.self, keyDecodingStrategy: .convertFromSnakeCase)
        var tokens: [DeviceID: [PushGateway: String]] = [:]
        for row in rows {
            tokens[row.id] = [.fcm: row.fcmToken, .apns: row.apnsToken].compactMapValues { $0 }
        }
        return tokens
    }

    func finish(_ message: PushOutboxMessage, as status: PushOutboxMessage.Status, reason: String?, at date: Date)
        async throws -> Bool
    {
        try await outbox.release(message.id, claim: message.claimId).set("status", to: status.rawValue)
            .set("last_error", to: reason).set("finished_at", to: date).returning("id").all().count == 1
    }

    func reschedule(_ message: PushOutboxMessage, to date: Date, reason: String) async throws -> Bool {
        try await outbox.reschedule(message.id, claim: message.claimId, to: date, reason: reason)
    }

    func clearToken(of device: DeviceID, gateway: PushGateway, token: String, at date: Date) async throws {
        let column = gateway == .apns ? "apns_token" : "fcm_token"
        try await database.sql.update("devices").set(column, to: SQLLiteral.null)
            .set("push_token_updated_at", to: date)
            .where("id", .equal, device).where(column, .equal, token).run()
    }

    func purgeFinished(before date: Date) async throws -> Int {
        try await outbox.purge([PushOutboxMessage.Status.sent, .dead, .skipped].map(\.rawValue), finishedBefore: date)
    }
}

extension SQLPushOutboxRepository {
    static func insert(_ messages: [PushOutboxMessage], on sql: any SQLDatabase) async throws -> Int {
        guard !messages.isEmpty else { return 0 }
        return try await sql.insert(into: "push_outbox")
            .models(messages, keyEncodingStrategy: .convertToSnakeCase, nilEncodingStrategy: .asNil)
            .ignoringConflicts(with: "dedupe_key").returning("id").all().count
    }
}
