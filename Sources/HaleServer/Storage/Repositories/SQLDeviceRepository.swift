import Foundation
import SQLKit

/// `DeviceRepository` on SQL.
struct SQLDeviceRepository: DeviceRepository {
    let database: HaleDatabase

    func insert(_ device: Device, key: DeviceKeyRecord, audit: AuditAppend?) async throws {
        do {
            try await database.writeTransaction { database in
                try await database.sql.insert(into: "devices")
                    .model(device, keyEncodingStrategy: .convertToSnakeCase).run()
                try await database.sql.insert(into: "device_keys")
                    .model(key, keyEncodingStrategy: .convertToSnakeCase).run()
                if let audit { try await SQLAuditRepository.append(audit, in: database) }
            }
        } catch  where HaleDatabase.isConstraintViolation(error) {
            throw HaleError(.conflict, .conflict, message: "This device key is registered already.")
        }
    }

    func insert(_ device: Device, audit: AuditAppend?) async throws {
        try await database.writeTransaction { database in
            try await database.sql.insert(into: "devices").model(device, keyEncodingStrategy: .convertToSnakeCase).run()
            if let audit { try await SQLAuditRepository.append(audit, in: database) }
        }
    }

    func activeDevice(of account: AccountID, installationHash: String) async throws -> Device? {
        try await selectDevices().where("account_id", .equal, account)
            .where("installation_hash", .equal, installationHash).where("deactivated_at", .is, SQLLiteral.null)
            .orderBy("last_used_at", .descending).orderBy("created_at", .descending)
            .first(decoding: Device.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func recordUse(of id: DeviceID, account: AccountID, at date: Date) async throws {
        try await database.sql.update("devices").set("last_used_at", to: date).where("id", .equal, id)
            .where("account_id", .equal, account).run()
    }

    func deleteEmptyDevices(of account: AccountID, at date: Date) async throws -> Int {
        try await database.sql.raw(
            """
            DELETE FROM devices WHERE account_id = \(bind: account) AND fcm_token IS NULL AND apns_token IS NULL
            AND NOT EXISTS (SELECT 1 FROM device_keys WHERE device_keys.device_id = devices.id)
            AND NOT EXISTS (SELECT 1 FROM passkey_credentials WHERE passkey_credentials.device_id = devices.id)
            AND NOT EXISTS (
                SELECT 1 FROM sessions WHERE sessions.device_id = devices.id AND sessions.revoked_at IS NULL
                AND sessions.expires_at > \(bind: date))
            AND NOT EXISTS (
                SELECT 1 FROM personal_access_tokens WHERE personal_access_tokens.device_id = devices.id
                AND personal_access_tokens.revoked_at IS NULL
                AND (personal_access_tokens.expires_at IS NULL OR personal_access_tokens.expires_at > \(bind: date)))
            RETURNING id
            """
        ).all().count
    }

    func keyedDeviceCount(of account: AccountID) async throws -> Int {
        try await database.sql.select()
            .column(SQLFunction("COUNT", args: SQLDistinct(SQLColumn("device_id"))), as: "count")
            .from("device_keys").where("account_id", .equal, account)
            .first(decodingColumn: "count", as: Int.self) ?? 0
    }

    func keyExists(thumbprint: String) async throws -> Bool {
        try await database.sql.select().column("id").from("device_keys").where("thumbprint", .equal, thumbprint)
            .first() != nil
    }

    func find(_ id: DeviceID, of account: AccountID) async throws -> Device? {
        try await selectDevices().where("id", .equal, id).where("account_id", .equal, account)
            .first(decoding: Device.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func devices(of account: AccountID) async throws -> [Device] {
        try await selectDevices().where("account_id", .equal, account).orderBy("created_at")
            .all(decoding: Device.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func activeKeyCount(of account: AccountID) async throws -> Int {
        try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count")
            .from("device_keys").join(
                "devices", on: SQLColumn("id", table: "devices"), .equal, SQLColumn("device_id", table: "device_keys")
            )
            .where(SQLColumn("account_id", table: "device_keys"), .equal, SQLBind(account))
            .where(SQLColumn("revoked_at", table: "device_keys"), .is, SQLLiteral.null)
            .where(SQLColumn("deactivated_at", table: "devices"), .is, SQLLiteral.null)
            .first(decodingColumn: "count", as: Int.self) ?? 0
    }

    func keys(of account: AccountID) async throws -> [DeviceKeyRecord] {
        try await database.sql.select().column("*").from("device_keys").where("account_id", .equal, account)
            .orderBy("created_at").all(decoding: DeviceKeyRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func hasSignInKey(fingerprintHash: String) async throws -> Bool {
        try await database.sql.select().column(SQLLiteral.numeric("1"))
            .from("devices")
            .join(
                "device_keys", on: SQLColumn("device_id", table: "device_keys"), .equal,
                SQLColumn("id", table: "devices")
            )
            .where(SQLColumn("fingerprint_hash", table: "devices"), .equal, SQLBind(fingerprintHash))
            .where(SQLColumn("deactivated_at", table: "devices"), .is, SQLLiteral.null)
            .where(SQLColumn("revoked_at", table: "device_keys"), .is, SQLLiteral.null)
            .limit(1).first() != nil
    }

    func signInCandidates(fingerprintHash: String, keys: SignInKeys, network: String, at date: Date, limit: Int)
        async throws -> [SignInCandidate]
    {
        let query = database.sql.select().column(SQLColumn(SQLLiteral.all, table: SQLIdentifier("devices")))
        for column in Self.keyColumns {
            query.column(SQLColumn(column, table: "device_keys"), as: Self.keyColumnPrefix + column)
        }
        query.from("device_keys")
            .join(
                "devices", on: SQLColumn("id", table: "devices"), .equal, SQLColumn("device_id", table: "device_keys")
            )
            .join(
                SQLIdentifier(Self.failures), method: SQLJoinMethod.left,
                on: SQLBinaryExpression(
                    SQLBinaryExpression(
                        SQLColumn("device_id", table: Self.failures), .equal, SQLColumn("id", table: "devices")),
                    .and,
                    SQLBinaryExpression(SQLColumn("client_network", table: Self.failures), .equal, SQLBind(network)))
            )
            .where(SQLColumn("fingerprint_hash", table: "devices"), .equal, SQLBind(fingerprintHash))
            .where(SQLColumn("deactivated_at", table: "devices"), .is, SQLLiteral.null)
            .where {
                $0.where(SQLColumn("locked_until", table: Self.failures), .is, SQLLiteral.null)
                    .orWhere(SQLColumn("locked_until", table: Self.failures), .lessThanOrEqual, SQLBind(date))
            }
            .where(SQLColumn("revoked_at", table: "device_keys"), .is, SQLLiteral.null)
        switch keys {
        case .thumbprints(let thumbprints):
            guard !thumbprints.isEmpty else { return [] }
            query.where(SQLColumn("thumbprint", table: "device_keys"), .in, SQLBind.group(thumbprints))
        case .types(let types, let preferredRange):
            guard !types.isEmpty else { return [] }
            query.where(SQLColumn("key_type", table: "device_keys"), .in, SQLBind.group(types))
            if let preferredRange {
                // The device's own network first: a key registered by another account under the same fingerprint
                // has not signed in from there.
                query.orderBy(
                    """
                    CASE WHEN \(ident: "devices").\(ident: "last_ip_range") = \(bind: preferredRange) THEN 0 ELSE 1 END
                    """ as SQLQueryString)
            }
        case .any:
            break
        }
        return try await query.orderBy(SQLColumn("created_at", table: "devices"))
            .orderBy(SQLColumn("created_at", table: "device_keys")).limit(limit)
            .all().map { row in
                SignInCandidate(
                    key: try row.decode(
                        model: DeviceKeyRecord.self, prefix: Self.keyColumnPrefix,
                        keyDecodingStrategy: .convertFromSnakeCase),
                    device: try row.decode(model: Device.self, keyDecodingStrategy: .convertFromSnakeCase))
            }
    }

    /// The columns of `device_keys`, read under `keyColumnPrefix` where a join would make their names ambiguous.
    private static let keyColumns = [
        "id", "device_id", "account_id", "public_key", "thumbprint", "key_type", "declared_algorithm",
        "signature_convention", "created_at", "last_used_at", "revoked_at",
    ]
    private static let keyColumnPrefix = "key_"

    func recordSignIn(key: UUID, device: DeviceID, network: String, ipRange: String?, at date: Date) async throws {
        @Sendable func updates(on sql: any SQLDatabase) -> (
            key: SQLUpdateBuilder, device: SQLUpdateBuilder, failures: SQLDeleteBuilder
        ) {
            let deviceUpdate = sql.update("devices")
            if let ipRange { deviceUpdate.set("last_ip_range", to: ipRange) }
            deviceUpdate.set("last_used_at", to: date).where("id", .equal, device)
            return (
                sql.update("device_keys").set("last_used_at", to: date).where("id", .equal, key), deviceUpdate,
                sql.delete(from: Self.failures).where("device_id", .equal, device)
                    .where("client_network", .equal, network)
            )
        }
        if database.isPostgres {
            // One statement and one commit: PostgreSQL runs a data-modifying WITH clause as part of the statement.
            let (key, device, failures) = updates(on: database.sql)
            try await device.with("key_used", as: key.update).with("failures_forgotten", as: failures.delete).run()
        } else {
            try await database.writeTransaction { database in
                let (key, device, failures) = updates(on: database.sql)
                try await key.run()
                try await device.run()
                try await failures.run()
            }
        }
    }

    func rename(_ id: DeviceID, of account: AccountID, to name: String) async throws -> Bool {
        try await database.sql.update("devices").set("name", to: name)
            .where("id", .equal, id).where("account_id", .equal, account)
            .returning("id").all().count == 1
    }

    func setPushToken(_ token: PushToken, of id: DeviceID, account: AccountID, at date: Date) async throws -> Bool {
        let update = database.sql.update("devices").set("push_token_updated_at", to: date)
        switch token {
        case .fcm(let value): update.set("fcm_token", to: value)
        case .apns(let value): update.set("apns_token", to: value)
        }
        return try await update.where("id", .equal, id).where("account_id", .equal, account)
            .where("deactivated_at", .is, SQLLiteral.null)
            .returning("id").all().count == 1
    }

    func deactivate(
        _ id: DeviceID, of account: AccountID, at date: Date, includingSyncedPasskeys: Bool,
        audit: @escaping @Sendable (DeviceRevocation) -> AuditAppend
    ) async throws -> DeviceRevocation? {
        try await database.writeTransaction { database in
            let changed =
                try await database.sql.update("devices").set("deactivated_at", to: date)
                .where("id", .equal, id).where("account_id", .equal, account)
                .where("deactivated_at", .is, SQLLiteral.null)
                .returning("id").all().count == 1
            guard changed else { return nil }
            let revoked = try await Self.revokeSignIns(
                of: id, account: account, at: date, reason: "device_deactivated",
                includingSyncedPasskeys: includingSyncedPasskeys, in: database)
            // A Firebase ID token names no device: every one from before now is refused.
            try await SQLAccountRepository.endSignIns(of: account, at: date, on: database)
            try await SQLAuditRepository.append(audit(revoked), in: database)
            return revoked
        }
    }

    func delete(
        _ id: DeviceID, of account: AccountID, at date: Date, includingSyncedPasskeys: Bool,
        audit: @escaping @Sendable (DeviceRevocation) -> AuditAppend
    ) async throws -> DeviceRevocation? {
        try await database.writeTransaction { database in
            let revoked = try await Self.revokeSignIns(
                of: id, account: account, at: date, reason: "device_deleted",
                includingSyncedPasskeys: includingSyncedPasskeys, in: database)
            let deleted =
                try await database.sql.delete(from: "devices")
                .where("id", .equal, id).where("account_id", .equal, account)
                .returning("id").all().count == 1
            // Nothing was revoked of a device that is not the account's: the statements above are scoped by both.
            guard deleted else { return nil }
            try await SQLAccountRepository.endSignIns(of: account, at: date, on: database)
            try await database.sql.update("passkey_credentials").set("device_id", to: SQLLiteral.null)
                .where("device_id", .equal, id).where("account_id", .equal, account).run()
            try await database.sql.delete(from: "push_outbox").where("device_id", .equal, id).run()
            try await SQLAuditRepository.append(audit(revoked), in: database)
            return revoked
        }
    }

    /// Revokes the device's keys and sessions and deletes the passkeys registered from it that live only there
    /// (backup eligibility off), or all of them when `includingSyncedPasskeys`.
    private static func revokeSignIns(
        of id: DeviceID, account: AccountID, at date: Date, reason: String, includingSyncedPasskeys: Bool,
        in database: HaleDatabase
    ) async throws -> DeviceRevocation {
        let keys = try await database.sql.update("device_keys").set("revoked_at", to: date)
            .where("device_id", .equal, id).where("account_id", .equal, account)
            .where("revoked_at", .is, SQLLiteral.null).returning("id").all().count
        let sessions = try await database.sql.update("sessions").set("revoked_at", to: date)
            .set("revoke_reason", to: reason)
            .where("device_id", .equal, id).where("account_id", .equal, account)
            .where("revoked_at", .is, SQLLiteral.null).returning("id").all().count
        let tokens = try await database.sql.update("personal_access_tokens").set("revoked_at", to: date)
            .where("device_id", .equal, id).where("account_id", .equal, account)
            .where("revoked_at", .is, SQLLiteral.null).returning("id").all().count
        let passkeys = database.sql.delete(from: "passkey_credentials")
            .where("device_id", .equal, id).where("account_id", .equal, account)
        if !includingSyncedPasskeys { passkeys.where("backup_eligible", .equal, false) }
        let deleted = try await passkeys.returning("id").all(decodingColumn: "id", as: UUID.self)
        return DeviceRevocation(
            deviceKeys: keys, sessions: sessions, personalAccessTokens: tokens,
            passkeys: deleted.sorted { $0.uuidString < $1.uuidString })
    }

    private func selectDevices() -> SQLSelectBuilder {
        database.sql.select().column("*").from("devices")
    }
}
