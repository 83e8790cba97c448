import Fluent
import SQLKit

/// Firebase users link to accounts through `social_identities` with provider `firebase`: `(provider, subject)` is
/// already unique, so a uid maps to one account; this makes an account map to one uid, so that the custom token
/// passkey sign-in mints always names the same Firebase user, however many sign-ins race to link one.
///
/// A partial unique index, which SQLite and PostgreSQL both have.
struct M0025_OneFirebaseUserPerAccount: AsyncMigration {
    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.raw(
            """
            CREATE UNIQUE INDEX social_identities_one_firebase_user ON social_identities (account_id)
            WHERE provider = 'firebase'
            """
        ).run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.raw("DROP INDEX social_identities_one_firebase_user").run()
    }
}
