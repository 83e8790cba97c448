import Fluent

/// `sessions.attestation_provisional`: whether a session's binding was made at its start, to the newest key of its
/// device, and not yet confirmed by a refresh. Such a session's first proved refresh may prove any key of that device
/// and is bound to the one it proves, so a key planted on the device with a stolen access token cannot hold the
/// owner's next sessions hostage. `attestation_proved_at`: when a refresh last proved the session's binding, from
/// which a session bound to Play Integrity counts its grace while Google's service is out.
struct M0043_ConfirmSessionBindings: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("sessions")
            .field("attestation_provisional", .bool, .required, .sql(.default(false))).update()
        try await database.schema("sessions").field("attestation_proved_at", .datetime).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("sessions").deleteField("attestation_proved_at").update()
        try await database.schema("sessions").deleteField("attestation_provisional").update()
    }
}
