import Foundation
import SQLKit

/// `SocialAccountRepository` on SQL.
struct SQLSocialAccountRepository: SocialAccountRepository {
    let database: HaleDatabase

    func identityCount(of account: AccountID) async throws -> Int {
        try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count")
            .from("social_identities").where("account_id", .equal, account)
            .first(decodingColumn: "count", as: Int.self) ?? 0
    }

    func identity(provider: String, subject: String) async throws -> SocialIdentity? {
        try await database.sql.select().column("*").from("social_identities")
            .where("provider", .equal, provider).where("subject", .equal, subject)
            .first(decoding: SocialIdentity.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func identity(provider: String, of account: AccountID) async throws -> SocialIdentity? {
        try await database.sql.select().column("*").from("social_identities")
            .where("provider", .equal, provider).where("account_id", .equal, account)
            .first(decoding: SocialIdentity.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func link(_ identity: SocialIdentity, newAccount: Account?) async throws -> Bool {
        do {
            try await database.writeTransaction { database in
                if let newAccount { try await SQLAccountRepository.insert(newAccount, in: database) }
                try await Self.save(identity, isNew: true, on: database.sql)
            }
            return true
        } catch  where HaleDatabase.isConstraintViolation(error) {
            return false
        }
    }

    func apply(_ write: SocialSignInWrite, at date: Date) async throws -> Int64 {
        do {
            return try await database.writeTransaction { database in
                let sql = database.sql
                if let account = write.newAccount { try await SQLAccountRepository.insert(account, in: database) }
                try await Self.save(write.identity, isNew: write.identityIsNew, on: sql)
                if let cleaner = write.cleaner {
                    try await Self.insert(cleaner, of: write.identity.accountId, at: date, on: sql)
                }
                for service in write.services {
                    try await sql.insert(into: "account_services").columns("account_id", "relation", "service_id")
                        .values(SQLBind(write.identity.accountId), SQLBind(service.relation), SQLBind(service.id))
                        .run()
                }
                for token in write.pushTokens {
                    try await Self.register(pushToken: token, for: write.identity.accountId, at: date, on: sql)
                }
                if !write.pushTokens.isEmpty {
                    try await Self.keepNewestPushRegistrations(of: write.identity.accountId, on: sql)
                }
                if let device = write.newDevice {
                    try await sql.insert(into: "devices").model(device, keyEncodingStrategy: .convertToSnakeCase).run()
                }
                if let audit = write.newInstallationAudit {
                    try await SQLAuditRepository.append(audit, in: database)
                }
                return try await SQLPersonalAccessTokenRepository(database: database).create(write.token)
            }
        } catch  where HaleDatabase.isConstraintViolation(error) {
            throw HaleError(
                .conflict, .conflict, message: "This account or identity was created by another request; try again.")
        }
    }

    func unlink(_ identity: SocialIdentity, revokingTokensNamed tokenName: String, at date: Date) async throws {
        try await database.writeTransaction { database in
            try await database.sql.delete(from: "social_identities").where("id", .equal, identity.id).run()
            try await Self.revokeTokens(of: identity.accountId, named: tokenName, at: date, on: database.sql)
        }
    }

    func endAuthorization(of identity: SocialIdentity, revokingTokensNamed tokenName: String, at date: Date)
        async throws
    {
        try await database.writeTransaction { database in
            try await database.sql.update("social_identities").set("refresh_token_sealed", to: SQLLiteral.null)
                .where("id", .equal, identity.id).run()
            try await Self.revokeTokens(of: identity.accountId, named: tokenName, at: date, on: database.sql)
        }
    }

    private static func revokeTokens(of account: AccountID, named name: String, at date: Date, on sql: any SQLDatabase)
        async throws
    {
        try await sql.update("personal_access_tokens").set("revoked_at", to: date)
            .where("account_id", .equal, account).where("name", .equal, name)
            .where("revoked_at", .is, SQLLiteral.null).run()
    }

    func setRelayEmailDisabled(_ disabled: Bool, of identity: UUID) async throws {
        try await database.sql.update("social_identities").set("relay_email_disabled", to: disabled)
            .where("id", .equal, identity).run()
    }

    private static func save(_ identity: SocialIdentity, isNew: Bool, on sql: any SQLDatabase) async throws {
        if isNew {
            try await sql.insert(into: "social_identities").model(identity, keyEncodingStrategy: .convertToSnakeCase)
                .run()
        } else {
            try await sql.update("social_identities").set("email", to: identity.email)
                .set("email_verified", to: identity.emailVerified)
                .set("private_relay_email", to: identity.privateRelayEmail)
                .set("client_id", to: identity.clientId).set("refresh_token_sealed", to: identity.refreshTokenSealed)
                .set("last_sign_in_at", to: identity.lastSignInAt)
                .where("id", .equal, identity.id).run()
        }
    }

    private static func insert(_ cleaner: CleanerProfile, of account: AccountID, at date: Date, on sql: any SQLDatabase)
        async throws
    {
        try await sql.insert(into: "cleaner_profiles")
            .columns(
                "account_id", "phone", "available_days", "time_slots", "max_hours_per_week", "accepts_urgent_offers",
                "years_of_experience", "has_cleaning_supplies", "comfortable_with_pets", "service_radius_km",
                "terms_agreed_at"
            )
            .values(
                SQLBind(account), SQLBind(cleaner.phone),
                SQLBind(cleaner.availableDays.map(\.rawValue).joined(separator: ",")),
                SQLBind(cleaner.timeSlots.map(\.rawValue).joined(separator: ",")), SQLBind(cleaner.maxHoursPerWeek),
                SQLBind(cleaner.acceptsUrgentOffers), SQLBind(cleaner.yearsOfExperience),
                SQLBind(cleaner.hasCleaningSupplies), SQLBind(cleaner.comfortableWithPets),
                SQLBind(cleaner.serviceRadius), SQLBind(date)
            )
            .run()
    }

    /// The most push registrations an account keeps from social sign-in: each app installation sends its token
    /// again at each sign-in, so the oldest beyond these belong to installations long gone, and go.
    static let pushRegistrationsKept = 20

    private static func keepNewestPushRegistrations(of account: AccountID, on sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            DELETE FROM push_registrations WHERE account_id = \(bind: account) AND token NOT IN (
                SELECT token FROM push_registrations WHERE account_id = \(bind: account)
                ORDER BY updated_at DESC, token LIMIT \(bind: pushRegistrationsKept))
            """
        ).run()
    }

    /// A token belongs to the installation that sent it, so it moves to whichever account sent it last.
    private static func register(pushToken: String, for account: AccountID, at date: Date, on sql: any SQLDatabase)
        async throws
    {
        try await sql.delete(from: "push_registrations").where("token", .equal, pushToken).run()
        try await sql.insert(into: "push_registrations").columns("token", "account_id", "platform", "updated_at")
            .values(SQLBind(pushToken), SQLBind(account), SQLBind("fcm"), SQLBind(date)).run()
    }
}
