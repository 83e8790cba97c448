/// The SQL that writes a per-day summary's packed text, `day:steps:duration:calories:distance`, which
/// `PackedDailyTotals` parses.
enum HealthDaySummaryText {
    /// The text of five SQL expressions, in that order, on PostgreSQL or SQLite. The expressions are Hale's own
    /// column names and aggregates, never input.
    static func expression(isPostgres: Bool, columns: [String]) -> String {
        // PostgreSQL's `concat_ws` formats the numbers in half the time of casts joined by `||`.
        if isPostgres { return "concat_ws(':', \(columns.joined(separator: ", ")))" }
        return columns.map { "CAST(\($0) AS TEXT)" }.joined(separator: " || ':' || ")
    }
}
