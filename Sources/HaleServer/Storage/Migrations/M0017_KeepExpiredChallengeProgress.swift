import Fluent
import SQLKit

/// A challenge can run longer than health data is kept. When retention deletes a rollup inside a challenge's window,
/// its value moves into `expired_progress`, and progress is `expired_progress` plus the rollups still kept.
struct M0017_KeepExpiredChallengeProgress: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("fitness_challenge_members")
            .field("expired_progress", .double, .required, .sql(.default(0.0)))
            .update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("fitness_challenge_members").deleteField("expired_progress").update()
    }
}
