import Fluent
import SQLKit

/// Social sign-in (seed 003): the provider identities that sign in to an account, the cleaner profile and service
/// relationships collected at sign-up, the push registrations apps send with it, and Apple refresh tokens waiting
/// to be revoked.
struct M0009_CreateSocialIdentities: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("social_identities")
            .field("id", .uuid, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("provider", .string, .required)
            .field("subject", .string, .required)
            .field("email", .string)
            .field("email_verified", .bool, .required)
            .field("private_relay_email", .bool, .required)
            .field("relay_email_disabled", .bool, .required)
            .field("client_id", .string)
            .field("refresh_token_sealed", .string)
            .field("created_at", .datetime, .required)
            .field("last_sign_in_at", .datetime, .required)
            .unique(on: "provider", "subject")
            .create()
        try await database.schema("cleaner_profiles")
            .field("account_id", .uuid, .identifier(auto: false), .references("accounts", "id", onDelete: .cascade))
            .field("phone", .string, .required)
            .field("available_days", .string, .required)
            .field("time_slots", .string, .required)
            .field("max_hours_per_week", .int64, .required)
            .field("accepts_urgent_offers", .bool, .required)
            .field("years_of_experience", .int64, .required)
            .field("has_cleaning_supplies", .bool, .required)
            .field("comfortable_with_pets", .bool, .required)
            .field("service_radius_km", .int64, .required)
            .field("terms_agreed_at", .datetime, .required)
            .create()
        try await database.schema("account_services")
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("relation", .string, .required)
            .field("service_id", .int64, .required)
            .unique(on: "account_id", "relation", "service_id")
            .create()
        try await database.schema("push_registrations")
            .field("token", .string, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("platform", .string, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.schema("apple_token_revocations")
            .field("id", .uuid, .identifier(auto: false))
            .field("client_id", .string, .required)
            .field("refresh_token_sealed", .string, .required)
            .field("attempts", .int64, .required)
            .field("next_attempt_at", .datetime, .required)
            .field("last_error", .string)
            .field("created_at", .datetime, .required)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "apple_token_revocations_next_attempt_at").on("apple_token_revocations")
            .column("next_attempt_at").run()
        try await sql.create(index: "social_identities_account_id").on("social_identities").column("account_id").run()
        try await sql.create(index: "push_registrations_account_id").on("push_registrations").column("account_id")
            .run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("apple_token_revocations").delete()
        try await database.schema("push_registrations").delete()
        try await database.schema("account_services").delete()
        try await database.schema("cleaner_profiles").delete()
        try await database.schema("social_identities").delete()
    }
}
