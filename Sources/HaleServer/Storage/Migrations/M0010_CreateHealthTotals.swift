import Fluent
import SQLKit

/// Seed 001's health data: one row of daily totals per account, day and source, their sum per day, and the time
/// zone an account's "today" is in.
struct M0010_CreateHealthTotals: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("health_daily_totals")
            .field("id", .uuid, .identifier(auto: false))
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("day", .int64, .required)
            .field("source", .string, .required)
            .field("platform", .string, .required)
            .field("steps", .int64, .required)
            .field("duration", .int64, .required)
            .field("calories_hundredths", .int64, .required)
            .field("distance_hundredths", .int64, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "account_id", "day", "source")
            .create()
        // Every source's totals of a day added up, kept with each submission, so statistics read one row a day.
        try await database.schema("health_day_summaries")
            .field("account_id", .uuid, .required, .references("accounts", "id", onDelete: .cascade))
            .field("day", .int64, .required)
            .field("steps", .int64, .required)
            .field("duration", .int64, .required)
            .field("calories_hundredths", .int64, .required)
            .field("distance_hundredths", .int64, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "account_id", "day")
            .create()
        try await database.schema("accounts").field("time_zone", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("accounts").deleteField("time_zone").update()
        try await database.schema("health_day_summaries").delete()
        try await database.schema("health_daily_totals").delete()
    }
}
