import Fluent
import SQLKit

/// Verified fitness challenges and their provenance: `health_write_proofs`, what proved each attested write (never
/// its token), and `health_samples.proof_id`, the write that brought a sample when it was attested; each daily
/// rollup's verified values by device class, the counts of its samples a verified challenge leaves out and why, and
/// its implausibility; a challenge's verified sources; a member's verified mark and excluded samples.
struct M0044_VerifyChallengeProgress: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let zero = DatabaseSchema.FieldConstraint.sql(.default(0))
        let no = DatabaseSchema.FieldConstraint.sql(.default(false))
        try await database.schema("health_write_proofs")
            .field("id", .uuid, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("platform", .string, .required)
            .field("key_id", .string)
            .field("app_id", .string, .required)
            .field("app_version", .string)
            .field("counter", .int64)
            .field("nonce", .string, .required)
            .field("body_sha256", .string, .required)
            .field("created_at", .datetime, .required)
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "health_write_proofs_account_id_created_at").on("health_write_proofs")
                .column("account_id").column("created_at").run()
            try await sql.create(index: "health_write_proofs_created_at").on("health_write_proofs")
                .column("created_at").run()
        }
        // One column per statement: SQLite adds one at a time. No foreign key: a sample names its proof as a COPY
        // writes it, and retention removes a proof only once its samples are gone.
        try await database.schema("health_samples").field("proof_id", .uuid).update()
        for column in Self.verifiedValues {
            try await database.schema("health_rollups").field(FieldKey(stringLiteral: column), .double, .required, zero)
                .update()
        }
        for column in Self.sampleCounts {
            try await database.schema("health_rollups").field(FieldKey(stringLiteral: column), .int64, .required, zero)
                .update()
        }
        try await database.schema("health_rollups").field("implausible_rate", .string).update()
        try await database.schema("health_rollups").field("implausible_stride", .string).update()
        // Every sample stored before now came without an attestation: say so of the days they fill, so that no
        // member is marked verified on their strength. The counts are exact again once a sync recomputes the day.
        if let sql = database as? any SQLDatabase {
            try await sql.raw("UPDATE health_rollups SET samples_unattested = 1 WHERE value_excluding_user_entered > 0")
                .run()
            try await sql.raw(
                "UPDATE health_rollups SET samples_user_entered = 1 WHERE value > value_excluding_user_entered"
            )
            .run()
        }
        try await database.schema("fitness_challenges").field("verified_sources", .string).update()
        try await database.schema("fitness_challenge_members").field("verified", .bool, .required, no).update()
        try await database.schema("fitness_challenge_members").field("excluded_samples", .int64, .required, zero)
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("fitness_challenge_members").deleteField("excluded_samples").update()
        try await database.schema("fitness_challenge_members").deleteField("verified").update()
        try await database.schema("fitness_challenges").deleteField("verified_sources").update()
        for column in ["implausible_stride", "implausible_rate"] + Self.sampleCounts + Self.verifiedValues {
            try await database.schema("health_rollups").deleteField(FieldKey(stringLiteral: column)).update()
        }
        try await database.schema("health_samples").deleteField("proof_id").update()
        try await database.schema("health_write_proofs").delete()
    }

    static let verifiedValues = ["value_verified_watch", "value_verified_phone", "value_verified_other"]
    static let sampleCounts = [
        "samples_user_entered", "samples_unattested", "samples_verified_watch", "samples_verified_phone",
        "samples_verified_other",
    ]
}
