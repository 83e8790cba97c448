import Foundation

/// Stores daily health totals. Every call is scoped by the account.
protocol HealthRepository: Sendable {
    /// Forgets what the account's attested totals from `platform` (`ios` or `android`) hold of `columns`
    /// (`steps`, `duration`, `calories_hundredths`, `distance_hundredths`): each is set to zero, a row left with
    /// nothing is deleted, and the days' summaries are recomputed, in one transaction. Returns the rows changed.
    func forget(_ columns: [String], from platform: String, of account: AccountID, at date: Date) async throws -> Int
    /// Stores a day's totals for a source, replacing an earlier submission for the same day and source; returns
    /// the stored row and whether it replaced one.
    func save(_ total: HealthDailyTotal) async throws -> (stored: HealthDailyTotal, replaced: Bool)
    /// Stores many days at once, in one transaction, replacing what is there for the same day and source.
    func saveAll(_ totals: [HealthDailyTotal]) async throws
    /// The account's totals per day over the range, all sources added up; days without data are absent.
    func dailyTotals(of account: AccountID, from start: LocalDate, through end: LocalDate) async throws
        -> [LocalDate: HealthTotals]
    /// When the account's data for `day` last changed.
    func lastUpdated(of account: AccountID, on day: LocalDate) async throws -> Date?
    /// The time zone the account's days are in, when known.
    func timeZone(of account: AccountID) async throws -> String?
    /// Remembers the time zone the account's days are in.
    func setTimeZone(_ identifier: String, of account: AccountID) async throws
    /// Every one of the account's submitted day totals, by day and source.
    func allDailyTotals(of account: AccountID) async throws -> [HealthDailyTotal]
    /// Deletes the account's submitted day totals and their per-day summary; returns how many totals.
    func deleteAll(of account: AccountID) async throws -> Int
    /// Deletes up to `limit` submitted day totals of any account for days before `day`, with those days'
    /// summaries, in one transaction; returns how many totals.
    func deleteDailyTotals(before day: LocalDate, limit: Int) async throws -> Int
}
