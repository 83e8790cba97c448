import StrictJSON
import Vapor

/// Seed 004's writes to `health_connections`, as its `connect()` (an upsert on `user_id, provider`) and
/// `disconnect()` (a `PATCH` of `is_active`) send them, carried out by `HealthConnections`, so that connecting grants
/// consent exactly as `POST /api/v1/health/connections` does.
struct SupabaseConnectionWrites {
    let connections: HealthConnections
    let account: AccountID

    /// The columns a write may name. `id`, `connected_at`, `last_sync_at` and `disconnected_at` are Hale's to keep:
    /// accepted, as the app may send them, and set by Hale.
    static let writable: Set<String> = [
        "id", "user_id", "provider", "permissions_granted", "is_active", "connected_at", "last_sync_at",
        "disconnected_at",
    ]

    /// Inserts each row, or, with `resolution`, upserts or skips it when the account has that provider already; the
    /// providers written.
    func insert(_ rows: [[String: JSONValue]], resolution: PostgRESTPreferences.Resolution) async throws
        -> [HealthProvider]
    {
        var written: [HealthProvider] = []
        let existing = Set(try await connections.list(of: account).map(\.provider))
        for row in rows {
            try checkColumns(of: row)
            let provider = try Self.provider(row["provider"])
            guard row["is_active"]?.bool ?? true else {
                throw PostgRESTError(
                    code: "23514", status: 400,
                    message: "A connection starts active: disconnect it with PATCH is_active false")
            }
            let permissions = try Self.permissions(row["permissions_granted"])
            if existing.contains(provider) {
                switch resolution {
                case .none: throw Self.duplicate
                case .ignoreDuplicates: continue
                case .mergeDuplicates: break
                }
            }
            _ = try await connections.connect(
                provider: provider, permissions: try HealthSampleType.namedList(permissions), account: account)
            written.append(provider)
        }
        return written
    }

    /// Applies `changes` to each of the account's connections to `providers`: `is_active` false disconnects,
    /// true (or new `permissions_granted`) connects with the permissions given or kept.
    func update(_ providers: [HealthProvider], with changes: [String: JSONValue]) async throws {
        try checkColumns(of: changes)
        for column in ["id", "provider"] where changes[column] != nil {
            throw PostgRESTError(
                code: "42501", status: 403, message: "Hale keeps health_connections.\(column) as it is")
        }
        let current = try await connections.list(of: account)
        for provider in providers {
            guard let connection = current.first(where: { $0.provider == provider }) else { continue }
            let active = changes["is_active"]?.bool ?? connection.isActive
            if !active {
                if connection.isActive {
                    _ = try await connections.disconnect(provider: provider, account: account)
                }
            } else if changes["is_active"] != nil || changes["permissions_granted"] != nil {
                let permissions =
                    changes["permissions_granted"] == nil
                    ? connection.permissionNames : try Self.permissions(changes["permissions_granted"])
                _ = try await connections.connect(
                    provider: provider, permissions: try HealthSampleType.namedList(permissions), account: account)
            }
        }
    }

    /// Refuses a column the table does not have (`PGRST204`), a `user_id` other than the account's (`42501`, as
    /// row-level security refuses it), and values of the wrong type.
    private func checkColumns(of row: [String: JSONValue]) throws {
        try PostgRESTRowCheck.check(row, of: "health_connections", writable: Self.writable, account: account)
        if let active = row["is_active"], active.bool == nil {
            throw PostgRESTError.invalidValue("\(active)", type: "boolean")
        }
    }

    private static func provider(_ value: JSONValue?) throws -> HealthProvider {
        guard case .string(let name) = value else {
            throw PostgRESTError(
                code: "23502", status: 400,
                message:
                    "null value in column \"provider\" of relation \"health_connections\" violates not-null constraint")
        }
        guard let provider = HealthProvider(parsing: name) else {
            throw PostgRESTError(
                code: "23514", status: 400,
                message: "provider must be healthkit, googlefit or health_connect, not \(name.prefix(64))")
        }
        return provider
    }

    private static func permissions(_ value: JSONValue?) throws -> [String] {
        guard case .array(let items) = value, !items.isEmpty, items.count <= 32 else {
            throw PostgRESTError(
                code: "23502", status: 400,
                message: "permissions_granted must be a non-empty array of the kinds the person granted")
        }
        return try items.map { item in
            guard case .string(let name) = item else { throw PostgRESTError.invalidValue("\(item)", type: "text") }
            return name
        }
    }

    static let duplicate = PostgRESTError(
        code: "23505", status: 409,
        message: "duplicate key value violates unique constraint \"health_connections_user_id_provider_key\"",
        details: "The account has a connection to this provider: upsert it (on_conflict=user_id,provider) or PATCH it.")
}

extension PostgRESTError {
    /// `42501`: a row naming another account, refused as row-level security refuses it.
    static func rowLevelSecurity(_ table: String) -> PostgRESTError {
        PostgRESTError(
            code: "42501", status: 403, message: "new row violates row-level security policy for table \"\(table)\"")
    }
}

extension JSONValue {
    /// The value when it is a JSON boolean.
    fileprivate var bool: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }
}
