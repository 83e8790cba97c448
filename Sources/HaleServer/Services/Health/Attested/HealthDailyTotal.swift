import Foundation

/// One source's totals for one day of one account, as submitted to `POST /health`.
public struct HealthDailyTotal: Sendable, Equatable {
    /// The row's identifier.
    public var id: UUID
    /// Whose.
    public var accountId: AccountID
    /// Which day.
    public var day: LocalDate
    /// Where from, such as `ios_health`.
    public var source: String
    /// `ios` or `android`: the attestation that vouched for it.
    public var platform: String
    /// The totals.
    public var totals: HealthTotals
    /// When first submitted.
    public var createdAt: Date
    /// When last replaced.
    public var updatedAt: Date

    /// Creates a row.
    public init(
        id: UUID, accountId: AccountID, day: LocalDate, source: String, platform: String, totals: HealthTotals,
        createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.accountId = accountId
        self.day = day
        self.source = source
        self.platform = platform
        self.totals = totals
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
