import Fluent

/// `sessions.stepped_up_at`: when the person last proved themselves on the session with a step-up ceremony (a
/// passkey assertion), so a session older than `tokens.freshSignInWindow` may still change how the account is
/// reached for a while after it.
struct M0036_StepUpSessions: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("sessions").field("stepped_up_at", .datetime).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("sessions").deleteField("stepped_up_at").update()
    }
}
