import Fluent

/// Verified fitness challenges: whether a sample arrived in an attested write; each daily rollup's verified values
/// by device class, the counts of its samples a verified challenge leaves out and why, and its implausibility; a
/// challenge's verified sources; a member's verified mark and excluded samples.
struct M0044_VerifyChallengeProgress: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let zero = DatabaseSchema.FieldConstraint.sql(.default(0))
        let no = DatabaseSchema.FieldConstraint.sql(.default(false))
        // One column per statement: SQLite adds one at a time.
        try await database.schema("health_samples").field("attested", .bool, .required, no).update()
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
        try await database.schema("health_samples").deleteField("attested").update()
    }

    static let verifiedValues = ["value_verified_watch", "value_verified_phone", "value_verified_other"]
    static let sampleCounts = [
        "samples_user_entered", "samples_unattested", "samples_verified_watch", "samples_verified_phone",
        "samples_verified_other",
    ]
}
