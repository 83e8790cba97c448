import Foundation
import SQLKit

/// Failed device-key signatures, counted per device and client network in `device_sign_in_failures`, so that every
/// instance sees the same counts and locks.
extension SQLDeviceRepository {
    static let failures = "device_sign_in_failures"

    func recordFailedSignature(devices: [DeviceID], network: String, at date: Date, lockout: SignInLockout)
        async throws
    {
        guard !devices.isEmpty else { return }
        let table = Self.failures
        let insert = database.sql.insert(into: table)
            .columns("device_id", "client_network", "failed_count", "last_failed_at")
        for device in devices {
            insert.values(SQLBind(device), SQLBind(network), SQLLiteral.numeric("1"), SQLBind(date))
        }
        let remembered = date.addingTimeInterval(-lockout.duration)
        // One statement per failure, atomic on both databases: racing failures each count.
        try await insert.onConflict(with: ["device_id", "client_network"]) { update in
            update.set(
                "failed_count",
                to: """
                    CASE WHEN \(ident: table).\(ident: "last_failed_at") < \(bind: remembered) THEN 1 \
                    ELSE \(ident: table).\(ident: "failed_count") + 1 END
                    """ as SQLQueryString
            )
            .set(excludedValueOf: "last_failed_at")
        }.run()
        try await database.sql.update(table)
            .set("locked_until", to: date.addingTimeInterval(lockout.duration)).set("failed_count", to: 0)
            .where("device_id", .in, devices).where("client_network", .equal, network)
            .where("failed_count", .greaterThanOrEqual, lockout.threshold).run()
    }

    func lockouts(of account: AccountID, at date: Date) async throws -> [DeviceID: Date] {
        let rows = try await database.sql.select()
            .column(SQLColumn("device_id", table: Self.failures), as: "device_id")
            .column(SQLFunction("MAX", args: SQLColumn("locked_until", table: Self.failures)), as: "locked_until")
            .from(Self.failures)
            .join(
                "devices", on: SQLColumn("id", table: "devices"), .equal, SQLColumn("device_id", table: Self.failures)
            )
            .where(SQLColumn("account_id", table: "devices"), .equal, SQLBind(account))
            .where(SQLColumn("locked_until", table: Self.failures), .greaterThan, SQLBind(date))
            .groupBy(SQLColumn("device_id", table: Self.failures))
            .all()
        return Dictionary(
            try rows.map {
                (
                    try $0.decode(column: "device_id", as: DeviceID.self),
                    try $0.decode(column: "locked_until", as: Date.self)
                )
            },
            uniquingKeysWith: max)
    }

    func forgetSignInFailures(before cutoff: Date, at date: Date) async throws -> Int {
        try await database.sql.delete(from: Self.failures)
            .where("last_failed_at", .lessThan, cutoff)
            .where { $0.where("locked_until", .is, SQLLiteral.null).orWhere("locked_until", .lessThanOrEqual, date) }
            .returning("device_id").all().count
    }
}
