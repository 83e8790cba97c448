import Foundation

/// A one-time nonce.
public struct AttestationNonce: Sendable, Hashable, Decodable {
    /// The nonce.
    public let nonce: String
    /// When it stops being accepted.
    public let expiresAt: Date
}

/// A stored day, as `POST /health` answers it.
public struct StoredHealthDay: Sendable, Hashable, Decodable {
    /// Its id.
    public let id: String
    /// The local day, `YYYY-MM-DD`.
    public let date: String
    /// Steps.
    public let steps: Int
    /// Active seconds.
    public let duration: Double
    /// Kilocalories.
    public let calories: Double
    /// Metres.
    public let distance: Double
    /// Where the data came from.
    public let source: String
    /// Whether it replaced an earlier submission for the same day and source.
    public let replaced: Bool
}

/// How statistics are grouped.
public enum StatisticsPeriod: String, Sendable, CaseIterable {
    /// By day.
    case day
    /// By ISO week.
    case week
    /// By calendar month.
    case month
}

/// Totals for a day, an ISO week (`2026-W47`) or a month (`2026-11`).
public struct HealthPeriodTotals: Sendable, Hashable, Decodable {
    /// The period's label.
    public let date: String
    /// Steps.
    public let steps: Int
    /// Active seconds.
    public let duration: Double
    /// Kilocalories.
    public let calories: Double
    /// Metres.
    public let distance: Double
}

/// `GET /health/statistics`.
public struct HealthStatistics: Sendable, Hashable, Decodable {
    /// One entry per period.
    public let items: [HealthPeriodTotals]
    /// The whole range.
    public let summary: HealthPeriodTotals
}

/// `GET /health/today`.
public struct HealthToday: Sendable, Hashable, Decodable {
    /// Today, `YYYY-MM-DD`.
    public let date: String
    /// Steps.
    public let steps: Int
    /// Active seconds.
    public let duration: Double
    /// Kilocalories.
    public let calories: Double
    /// Metres.
    public let distance: Double
    /// When a submission last changed today.
    public let lastUpdated: Date?
}
