import Fluent
import SQLKit

/// `account_recoveries`: recoveries that open a recovery session only once they are ready: after
/// `recovery.emailDelay` when started by a code mailed to a verified address or by an operator, or when a signed-in
/// device approves one a new device asked for. The person who started one holds its claim token, stored only as its
/// SHA-256, and sees its pairing code, which the approving device must type. Any signed-in device of the account may
/// cancel it while it waits. A request from a new device naming an address no account verified is stored too, with
/// no account, so that it answers exactly as a real one does until it lapses. A social identity that joins an
/// account by its verified address (`socialSignIn.linkByVerifiedEmail`) waits the same way: `link_provider` and
/// `link_subject` name it.
struct M0040_CreateAccountRecoveries: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("account_recoveries")
            .field("id", .uuid, .identifier(auto: false))
            .field("account_id", .uuid, .references("accounts", "id", onDelete: .cascade))
            .field("method", .string, .required)
            .field("pairing_code", .string, .required)
            .field("claim_hash", .string, .required)
            .field("requested_at", .datetime, .required)
            .field("ready_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .field("cancelled_at", .datetime)
            .field("claimed_at", .datetime)
            .field("link_provider", .string)
            .field("link_subject", .string)
            // The address a new device's request named, normalized, so requests naming one address are capped.
            .field("address", .string)
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "account_recoveries_account_id").on("account_recoveries").column("account_id").run()
        try await sql.create(index: "account_recoveries_address_requested_at").on("account_recoveries")
            .column("address").column("requested_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("account_recoveries").delete()
    }
}
