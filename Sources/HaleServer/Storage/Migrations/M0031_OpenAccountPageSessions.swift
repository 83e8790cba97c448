import Fluent
import SQLKit

/// A session started on the account page is held by the browser as an `HttpOnly` cookie: the session stores the
/// cookie's SHA-256, never the cookie. Null for every session an app holds by its refresh token.
struct M0031_OpenAccountPageSessions: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("sessions").field("web_token_hash", .string).update()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "sessions_web_token_hash").unique().on("sessions").column("web_token_hash").run()
    }

    func revert(on database: any Database) async throws {
        if let sql = database as? any SQLDatabase {
            try await sql.drop(index: "sessions_web_token_hash").run()
        }
        try await database.schema("sessions").deleteField("web_token_hash").update()
    }
}
