import Foundation
import SQLKit

/// `HealthConnectionRepository` on SQL. Permissions are kept as comma-separated names, portable to SQLite, as the
/// app sent them (rows from before that hold the raw values, which parse the same).
struct SQLHealthConnectionRepository: HealthConnectionRepository {
    let database: HaleDatabase

    private struct Row: Codable {
        let id: UUID
        let accountId: AccountID
        let provider: String
        let permissionsGranted: String
        let connectedAt: Date
        let lastSyncAt: Date?
        let isActive: Bool
        let disconnectedAt: Date?

        var connection: HealthConnection? {
            guard let provider = HealthProvider(rawValue: provider) else { return nil }
            let named = permissionsGranted.split(separator: ",").compactMap { name in
                HealthSampleType(parsing: String(name)).map { (name: String(name), type: $0) }
            }
            return HealthConnection(
                id: id, accountId: accountId, provider: provider, permissionsGranted: named.map(\.type),
                permissionNames: named.map(\.name), connectedAt: connectedAt, lastSyncAt: lastSyncAt,
                isActive: isActive, disconnectedAt: disconnectedAt)
        }
    }

    func connect(_ account: AccountID, to provider: HealthProvider, permissions: [String], at date: Date)
        async throws -> HealthConnection
    {
        let names = permissions.joined(separator: ",")
        try await database.sql.raw(
            """
            INSERT INTO health_connections
                (id, account_id, provider, permissions_granted, connected_at, last_sync_at, is_active, disconnected_at)
            VALUES (\(bind: UUID()), \(bind: account), \(bind: provider.rawValue), \(bind: names), \(bind: date), NULL,
                \(bind: true), NULL)
            ON CONFLICT (account_id, provider) DO UPDATE SET
                permissions_granted = excluded.permissions_granted,
                connected_at = CASE WHEN health_connections.is_active THEN health_connections.connected_at
                    ELSE excluded.connected_at END,
                is_active = excluded.is_active,
                disconnected_at = NULL
            """
        ).run()
        guard let connection = try await connections(of: account).first(where: { $0.provider == provider }) else {
            throw HaleError(.conflict, .conflict, message: "The connection changed while it was made; try again.")
        }
        return connection
    }

    func disconnect(_ account: AccountID, from provider: HealthProvider, at date: Date) async throws
        -> HealthConnection?
    {
        try await database.sql.update("health_connections").set("is_active", to: false)
            .set("disconnected_at", to: date)
            .where("account_id", .equal, account).where("provider", .equal, provider.rawValue)
            .where("is_active", .equal, true)
            .returning("*").all(decoding: Row.self, keyDecodingStrategy: .convertFromSnakeCase)
            .first?.connection
    }

    func connections(of account: AccountID) async throws -> [HealthConnection] {
        try await database.sql.select().column("*").from("health_connections").where("account_id", .equal, account)
            .orderBy("provider")
            .all(decoding: Row.self, keyDecodingStrategy: .convertFromSnakeCase)
            .compactMap(\.connection)
    }
}
