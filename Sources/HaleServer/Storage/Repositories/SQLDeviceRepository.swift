import Foundation
import SQLKit

/// `DeviceRepository` on SQL.
struct SQLDeviceRepository: DeviceRepository {
    let database: HaleDatabase

    func insert(_ device: Device, key: DeviceKeyRecord) async throws {
        do {
            try await database.writeTransaction { database in
                try await database.sql.insert(into: "devices")
                    .model(device, keyEncodingStrategy: .convertToSnakeCase).run()
                try await database.sql.insert(into: "device_keys")
                    .model(key, keyEncodingStrategy: .convertToSnakeCase).run()
            }
        } catch  where HaleDatabase.isConstraintViolation(error) {
            throw HaleError(.conflict, status: 409, message: "This device key is registered already.")
        }
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

    func signInCandidates(fingerprintHash: String, at date: Date, limit: Int) async throws -> [SignInCandidate] {
        let devices = try await selectDevices()
            .where("fingerprint_hash", .equal, fingerprintHash)
            .where("deactivated_at", .is, SQLLiteral.null)
            .where { $0.where("locked_until", .is, SQLLiteral.null).orWhere("locked_until", .lessThanOrEqual, date) }
            .orderBy("created_at").limit(limit)
            .all(decoding: Device.self, keyDecodingStrategy: .convertFromSnakeCase)
        guard !devices.isEmpty else { return [] }
        let keys = try await database.sql.select().column("*").from("device_keys")
            .where("device_id", .in, devices.map(\.id)).where("revoked_at", .is, SQLLiteral.null)
            .orderBy("created_at").limit(limit)
            .all(decoding: DeviceKeyRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        let byID = Dictionary(uniqueKeysWithValues: devices.map { ($0.id, $0) })
        return keys.compactMap { key in byID[key.deviceId].map { SignInCandidate(key: key, device: $0) } }
    }

    func recordSignIn(key: UUID, device: DeviceID, ipRange: String?, at date: Date) async throws {
        try await database.sql.update("device_keys").set("last_used_at", to: date).where("id", .equal, key).run()
        let update = database.sql.update("devices")
        if let ipRange { update.set("last_ip_range", to: ipRange) }
        try await update.set("last_used_at", to: date)
            .set("failed_signature_count", to: 0).set("locked_until", to: SQLLiteral.null)
            .where("id", .equal, device).run()
    }

    func recordFailedSignature(devices: [DeviceID], threshold: Int64, lockedUntil: Date) async throws {
        guard !devices.isEmpty else { return }
        try await database.sql.update("devices")
            .set("failed_signature_count", to: SQLRaw("failed_signature_count + 1"))
            .where("id", .in, devices).run()
        try await database.sql.update("devices")
            .set("locked_until", to: lockedUntil).set("failed_signature_count", to: 0)
            .where("id", .in, devices).where("failed_signature_count", .greaterThanOrEqual, threshold).run()
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

    func deactivate(_ id: DeviceID, of account: AccountID, at date: Date) async throws -> Bool {
        try await database.writeTransaction { database in
            let changed =
                try await database.sql.update("devices").set("deactivated_at", to: date)
                .where("id", .equal, id).where("account_id", .equal, account)
                .where("deactivated_at", .is, SQLLiteral.null)
                .returning("id").all().count == 1
            guard changed else { return false }
            try await Self.revokeKeysAndSessions(
                of: id, account: account, at: date, reason: "device_deactivated", in: database)
            return true
        }
    }

    func delete(_ id: DeviceID, of account: AccountID, at date: Date) async throws -> Bool {
        try await database.writeTransaction { database in
            try await Self.revokeKeysAndSessions(
                of: id, account: account, at: date, reason: "device_deleted", in: database)
            return try await database.sql.delete(from: "devices")
                .where("id", .equal, id).where("account_id", .equal, account)
                .returning("id").all().count == 1
        }
    }

    private static func revokeKeysAndSessions(
        of id: DeviceID, account: AccountID, at date: Date, reason: String, in database: HaleDatabase
    ) async throws {
        try await database.sql.update("device_keys").set("revoked_at", to: date)
            .where("device_id", .equal, id).where("account_id", .equal, account)
            .where("revoked_at", .is, SQLLiteral.null).run()
        try await database.sql.update("sessions").set("revoked_at", to: date).set("revoke_reason", to: reason)
            .where("device_id", .equal, id).where("account_id", .equal, account)
            .where("revoked_at", .is, SQLLiteral.null).run()
    }

    private func selectDevices() -> SQLSelectBuilder {
        database.sql.select().column("*").from("devices")
    }
}
