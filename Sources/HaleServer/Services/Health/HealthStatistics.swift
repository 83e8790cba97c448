/// Seed 001's statistics: totals by day, ISO week or month over a range of days, with a summary.
public enum HealthStatistics {
    /// How totals are grouped.
    public enum Period: String, Sendable, CaseIterable {
        case day, week, month
    }

    /// One group's totals, labelled `2025-07-24`, `2025-W30` or `2025-07`.
    public struct Item: Sendable, Equatable {
        /// The label.
        public let label: String
        /// The totals of the range's days in the group.
        public let totals: HealthTotals
    }

    /// The longest range asked for at once: ten years of days.
    public static let maximumDays = 3_660

    /// The range's groups in order, every one present (zeros for a group without data), and their sum. A week or
    /// month at either end of the range counts only the range's days.
    public static func aggregate(
        _ daily: [LocalDate: HealthTotals], from start: LocalDate, through end: LocalDate, by period: Period
    ) -> (items: [Item], summary: HealthTotals) {
        var items: [Item] = []
        var summary = HealthTotals.zero
        var day = start
        while day <= end {
            let label = label(of: day, by: period)
            let totals = daily[day] ?? .zero
            summary = summary + totals
            if let last = items.last, last.label == label {
                items[items.count - 1] = Item(label: label, totals: last.totals + totals)
            } else {
                items.append(Item(label: label, totals: totals))
            }
            day = day.adding(days: 1)
        }
        return (items, summary)
    }

    static func label(of day: LocalDate, by period: Period) -> String {
        switch period {
        case .day: day.description
        case .week: day.isoWeekLabel
        case .month: day.monthLabel
        }
    }
}
