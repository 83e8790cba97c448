import Fluent
import SQLKit

/// `email_addresses`: an account's addresses, each verified by a code or by the provider that signed the person in;
/// a verified address belongs to one account only. `email_codes`: one-time codes mailed to an address, stored as a
/// salted SHA-256, with the attempts made against each.
struct M0039_CreateEmailAddresses: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("email_addresses")
            .field("id", .uuid, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("address", .string, .required)
            .field("verified_by", .string, .required)
            .field("verified_at", .datetime, .required)
            .unique(on: "address")
            .create()
        try await database.schema("email_codes")
            .field("id", .uuid, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("address", .string, .required)
            .field("purpose", .string, .required)
            .field("code_hash", .string, .required)
            .field("attempts", .int64, .required)
            .field("expires_at", .datetime, .required)
            .field("used_at", .datetime)
            .field("created_at", .datetime, .required)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "email_addresses_account_id").on("email_addresses").column("account_id").run()
        try await sql.create(index: "email_codes_account_id_created_at").on("email_codes")
            .column("account_id").column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("email_codes").delete()
        try await database.schema("email_addresses").delete()
    }
}
