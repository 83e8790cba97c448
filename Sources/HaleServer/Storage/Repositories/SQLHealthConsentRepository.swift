import Foundation
import SQLKit

/// `HealthConsentRepository` on SQL.
struct SQLHealthConsentRepository: HealthConsentRepository {
    let database: HaleDatabase

    func grant(_ permissions: [HealthSampleType], from platform: HealthPlatform, to account: AccountID, at date: Date)
        async throws
    {
        for permission in permissions {
            try await database.sql.raw(
                """
                INSERT INTO health_consents (account_id, platform, permission, granted_at, revoked_at)
                VALUES (\(bind: account), \(bind: platform.rawValue), \(bind: permission.rawValue), \(bind: date), NULL)
                ON CONFLICT (account_id, platform, permission) DO UPDATE SET
                    granted_at = CASE WHEN health_consents.revoked_at IS NULL THEN health_consents.granted_at
                        ELSE excluded.granted_at END,
                    revoked_at = NULL
                """
            ).run()
        }
    }

    func revoke(
        _ permissions: [HealthSampleType]?, from platform: HealthPlatform?, of account: AccountID, at date: Date
    ) async throws -> [ConsentGrant] {
        var update = database.sql.update("health_consents").set("revoked_at", to: date)
            .where("account_id", .equal, account).where("revoked_at", .is, SQLLiteral.null)
        if let platform { update = update.where("platform", .equal, platform.rawValue) }
        if let permissions { update = update.where("permission", .in, permissions.map(\.rawValue)) }
        return try await update.returning("*")
            .all(decoding: ConsentGrant.self, keyDecodingStrategy: .convertFromSnakeCase)
            .sorted { ($0.platform.rawValue, $0.permission.rawValue) < ($1.platform.rawValue, $1.permission.rawValue) }
    }

    func grants(of account: AccountID) async throws -> [ConsentGrant] {
        try await database.sql.select().column("*").from("health_consents").where("account_id", .equal, account)
            .orderBy("platform").orderBy("permission")
            .all(decoding: ConsentGrant.self, keyDecodingStrategy: .convertFromSnakeCase)
    }
}
