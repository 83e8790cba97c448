import Foundation
import SQLKit

/// `HealthRepository` on SQL.
struct SQLHealthRepository: HealthRepository {
    let database: HaleDatabase

    func save(_ total: HealthDailyTotal) async throws -> (stored: HealthDailyTotal, replaced: Bool) {
        try await database.writeTransaction { database in
            let sql = database.sql
            let existing = try await sql.select().column("id").column("created_at").from("health_daily_totals")
                .where("account_id", .equal, total.accountId).where("day", .equal, total.day.dayNumber)
                .where("source", .equal, total.source).first()
            guard let existing else {
                try await Self.insert(total, on: sql)
                return (total, false)
            }
            var stored = total
            stored.id = try existing.decode(column: "id", as: UUID.self)
            stored.createdAt = try existing.decode(column: "created_at", as: Date.self)
            try await sql.update("health_daily_totals").set("platform", to: total.platform)
                .set("steps", to: total.totals.steps).set("duration", to: total.totals.duration)
                .set("calories_hundredths", to: total.totals.caloriesHundredths)
                .set("distance_hundredths", to: total.totals.distanceHundredths)
                .set("updated_at", to: total.updatedAt)
                .where("id", .equal, stored.id).run()
            return (stored, true)
        }
    }

    func saveAll(_ totals: [HealthDailyTotal]) async throws {
        try await database.writeTransaction { database in
            for total in totals {
                try await database.sql.delete(from: "health_daily_totals").where("account_id", .equal, total.accountId)
                    .where("day", .equal, total.day.dayNumber).where("source", .equal, total.source).run()
                try await Self.insert(total, on: database.sql)
            }
        }
    }

    private static func insert(_ total: HealthDailyTotal, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "health_daily_totals")
            .columns(
                "id", "account_id", "day", "source", "platform", "steps", "duration", "calories_hundredths",
                "distance_hundredths", "created_at", "updated_at"
            )
            .values(
                SQLBind(total.id), SQLBind(total.accountId), SQLBind(total.day.dayNumber), SQLBind(total.source),
                SQLBind(total.platform), SQLBind(total.totals.steps), SQLBind(total.totals.duration),
                SQLBind(total.totals.caloriesHundredths), SQLBind(total.totals.distanceHundredths),
                SQLBind(total.createdAt), SQLBind(total.updatedAt)
            )
            .run()
    }

    func dailyTotals(of account: AccountID, from start: LocalDate, through end: LocalDate) async throws
        -> [LocalDate: HealthTotals]
    {
        // PostgreSQL sums BIGINT into NUMERIC; the cast brings it back to what both databases decode as Int64.
        let sum = { (column: String) in
            SQLAlias(SQLRaw("CAST(SUM(\"\(column)\") AS BIGINT)"), as: SQLIdentifier(column))
        }
        let rows = try await database.sql.select().column("day")
            .column(sum("steps")).column(sum("duration")).column(sum("calories_hundredths"))
            .column(sum("distance_hundredths"))
            .from("health_daily_totals").where("account_id", .equal, account)
            .where("day", .greaterThanOrEqual, start.dayNumber).where("day", .lessThanOrEqual, end.dayNumber)
            .groupBy("day").all()
        var totals: [LocalDate: HealthTotals] = [:]
        for row in rows {
            totals[LocalDate(dayNumber: try row.decode(column: "day", as: Int.self))] = HealthTotals(
                steps: try row.decode(column: "steps", as: Int64.self),
                duration: try row.decode(column: "duration", as: Int64.self),
                caloriesHundredths: try row.decode(column: "calories_hundredths", as: Int64.self),
                distanceHundredths: try row.decode(column: "distance_hundredths", as: Int64.self))
        }
        return totals
    }

    func lastUpdated(of account: AccountID, on day: LocalDate) async throws -> Date? {
        try await database.sql.select().column(SQLFunction("MAX", args: SQLColumn("updated_at")), as: "last")
            .from("health_daily_totals").where("account_id", .equal, account).where("day", .equal, day.dayNumber)
            .first(decodingColumn: "last", as: Date?.self) ?? nil
    }

    func timeZone(of account: AccountID) async throws -> String? {
        try await database.sql.select().column("time_zone").from("accounts").where("id", .equal, account)
            .first(decodingColumn: "time_zone", as: String?.self) ?? nil
    }

    func setTimeZone(_ identifier: String, of account: AccountID) async throws {
        try await database.sql.update("accounts").set("time_zone", to: identifier).where("id", .equal, account).run()
    }
}
