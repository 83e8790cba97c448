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
                try await Self.summarize(total.accountId, day: total.day, at: total.updatedAt, on: database)
                try await SQLWebhookOutbox.enqueue(.attestedDay(total, replaced: false), in: database)
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
            try await Self.summarize(total.accountId, day: total.day, at: total.updatedAt, on: database)
            try await SQLWebhookOutbox.enqueue(.attestedDay(total, replaced: true), in: database)
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
            var summarized = Set<String>()
            for total in totals where summarized.insert("\(total.accountId) \(total.day.dayNumber)").inserted {
                try await Self.summarize(total.accountId, day: total.day, at: total.updatedAt, on: database)
            }
        }
    }

    /// Recomputes a day's sum over its sources, and its packed text, inside the transaction that changed one of them.
    private static func summarize(_ account: AccountID, day: LocalDate, at date: Date, on database: HaleDatabase)
        async throws
    {
        let sql = database.sql
        try await sql.delete(from: "health_day_summaries").where("account_id", .equal, account)
            .where("day", .equal, day.dayNumber).run()
        let packed = HealthDaySummaryText.expression(
            isPostgres: database.isPostgres,
            columns: [
                "day", "SUM(steps)", "SUM(duration)", "SUM(calories_hundredths)", "SUM(distance_hundredths)",
            ])
        try await sql.raw(
            """
            INSERT INTO health_day_summaries
                (account_id, day, steps, duration, calories_hundredths, distance_hundredths, packed, updated_at)
            SELECT account_id, day, SUM(steps), SUM(duration), SUM(calories_hundredths), SUM(distance_hundredths),
                \(unsafeRaw: packed), \(bind: date)
            FROM health_daily_totals WHERE account_id = \(bind: account) AND day = \(bind: day.dayNumber)
            GROUP BY account_id, day
            """
        ).run()
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
        let aggregate = database.isPostgres ? "string_agg(packed, ',')" : "group_concat(packed, ',')"
        let packed =
            try await database.sql.raw(
                """
                SELECT \(unsafeRaw: aggregate) AS packed FROM health_day_summaries
                WHERE account_id = \(bind: account) AND day >= \(bind: start.dayNumber) AND day <= \(bind: end.dayNumber)
                """
            ).first(decodingColumn: "packed", as: String?.self) ?? nil
        return try PackedDailyTotals.parse(packed ?? "")
    }

    func allDailyTotals(of account: AccountID) async throws -> [HealthDailyTotal] {
        try await database.sql.select().column("*").from("health_daily_totals").where("account_id", .equal, account)
            .orderBy("day").orderBy("source").all().map { row in
                HealthDailyTotal(
                    id: try row.decode(column: "id", as: UUID.self), accountId: account,
                    day: LocalDate(dayNumber: try row.decode(column: "day", as: Int.self)),
                    source: try row.decode(column: "source", as: String.self),
                    platform: try row.decode(column: "platform", as: String.self),
                    totals: HealthTotals(
                        steps: try row.decode(column: "steps", as: Int64.self),
                        duration: try row.decode(column: "duration", as: Int64.self),
                        caloriesHundredths: try row.decode(column: "calories_hundredths", as: Int64.self),
                        distanceHundredths: try row.decode(column: "distance_hundredths", as: Int64.self)),
                    createdAt: try row.decode(column: "created_at", as: Date.self),
                    updatedAt: try row.decode(column: "updated_at", as: Date.self))
            }
    }

    func forget(_ columns: [String], from platform: String, of account: AccountID, at date: Date) async throws -> Int {
        guard !columns.isEmpty else { return 0 }
        return try await database.writeTransaction { database in
            let update = database.sql.update("health_daily_totals").where("account_id", .equal, account)
                .where("platform", .equal, platform)
            for column in columns { update.set(SQLIdentifier(column), to: 0) }
            let days = try await update.returning("day").all(decodingColumn: "day", as: Int.self)
            try await database.sql.delete(from: "health_daily_totals").where("account_id", .equal, account)
                .where("platform", .equal, platform).where("steps", .equal, 0).where("duration", .equal, 0)
                .where("calories_hundredths", .equal, 0).where("distance_hundredths", .equal, 0).run()
            for day in Set(days) {
                try await Self.summarize(account, day: LocalDate(dayNumber: day), at: date, on: database)
            }
            return days.count
        }
    }

    func deleteAll(of account: AccountID) async throws -> Int {
        try await database.writeTransaction { database in
            try await database.sql.delete(from: "health_day_summaries").where("account_id", .equal, account).run()
            return try await database.sql.delete(from: "health_daily_totals").where("account_id", .equal, account)
                .returning("id").all().count
        }
    }

    func deleteDailyTotals(before day: LocalDate, limit: Int) async throws -> Int {
        try await database.writeTransaction { database in
            let sql = database.sql
            let ids = try await sql.select().column("id").from("health_daily_totals")
                .where("day", .lessThan, day.dayNumber).limit(limit).all(decodingColumn: "id", as: UUID.self)
            guard !ids.isEmpty else { return 0 }
            try await sql.delete(from: "health_daily_totals").where("id", .in, ids).run()
            try await sql.delete(from: "health_day_summaries").where("day", .lessThan, day.dayNumber).run()
            return ids.count
        }
    }

    func lastUpdated(of account: AccountID, on day: LocalDate) async throws -> Date? {
        try await database.sql.select().column("updated_at").from("health_day_summaries")
            .where("account_id", .equal, account).where("day", .equal, day.dayNumber)
            .first(decodingColumn: "updated_at", as: Date.self)
    }

    func timeZone(of account: AccountID) async throws -> String? {
        try await database.sql.select().column("time_zone").from("accounts").where("id", .equal, account)
            .first(decodingColumn: "time_zone", as: String?.self) ?? nil
    }

    func setTimeZone(_ identifier: String, of account: AccountID) async throws {
        try await database.sql.update("accounts").set("time_zone", to: identifier).where("id", .equal, account).run()
    }
}
