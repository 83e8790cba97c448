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
        var group = (label: label(of: start, by: period), totals: HealthTotals.zero)
        var day = start
        while day <= end {
            if day != start, startsGroup(day, period) {
                items.append(Item(label: group.label, totals: group.totals))
                group = (label(of: day, by: period), .zero)
            }
            let totals = daily[day] ?? .zero
            group.totals = group.totals + totals
            summary = summary + totals
            day = day.adding(days: 1)
        }
        items.append(Item(label: group.label, totals: group.totals))
        return (items, summary)
    }

    private static func startsGroup(_ day: LocalDate, _ period: Period) -> Bool {
        switch period {
        case .day: true
        case .week: day.isoWeekday == 1
        case .month: day.components.day == 1
        }
    }

    static func label(of day: LocalDate, by period: Period) -> String {
        switch period {
        case .day: day.description
        case .week: day.isoWeekLabel
        case .month: day.monthLabel
        }
    }
}
