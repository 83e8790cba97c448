import Fluent
import SQLKit

/// What lets Hale refuse Firebase ID tokens, which it cannot revoke, from before a sign-in was ended:
/// - `accounts.sign_ins_ended_at`: when "sign out everywhere" or a device's revocation last ended the account's
///   sign-ins; a Firebase ID token whose `auth_time` is before it is refused;
/// - `firebase_deleted_users`: for each Firebase user whose account was deleted, the SHA-256 of its uid and when,
///   so a token from before the deletion neither signs in to a new account nor outlives the old one.
struct M0035_EndFirebaseSignIns: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("accounts").field("sign_ins_ended_at", .datetime).update()
        try await database.schema("firebase_deleted_users")
            .field("uid_hash", .string, .identifier(auto: false))
            .field("deleted_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("firebase_deleted_users").delete()
        try await database.schema("accounts").deleteField("sign_ins_ended_at").update()
    }
}
