import Fluent
import SQLKit

/// Fitness challenges (seed 004's FitChallenge) and their members.
///
/// A challenge counts one cumulative type over a window of local days, `start_day … end_day` as day numbers like
/// `health_rollups.day`. A member's `progress` is the sum of their rollups in the window, kept up to date in the
/// transaction that changes the rollups; `left_at` is set while they are out of the challenge.
struct M0015_CreateFitnessChallenges: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("fitness_challenges")
            .field("id", .uuid, .identifier(auto: false))
            .field("creator_account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("type", .string, .required)
            .field("goal", .double, .required)
            .field("start_day", .int64, .required)
            .field("end_day", .int64, .required)
            .field("visibility", .string, .required)
            .field("includes_user_entered", .bool, .required, .sql(.default(false)))
            .field("created_at", .datetime, .required)
            .create()
        try await database.schema("fitness_challenge_members")
            .field("challenge_id", .uuid, .required, .references("fitness_challenges", "id", onDelete: .cascade))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("joined_at", .datetime, .required)
            .field("left_at", .datetime)
            .field("progress", .double, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "challenge_id", "account_id")
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "fitness_challenge_members_account").on("fitness_challenge_members")
            .column("account_id").run()
        try await sql.create(index: "fitness_challenges_type_window").on("fitness_challenges")
            .column("type").column("start_day").column("end_day").run()
        try await sql.create(index: "fitness_challenges_visibility_created").on("fitness_challenges")
            .column("visibility").column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("fitness_challenge_members").delete()
        try await database.schema("fitness_challenges").delete()
    }
}
