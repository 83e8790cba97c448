import Foundation

extension DailyHealthTotals {
    /// The quantities a day's totals add up, each summed with `cumulativeSum` and read in its `unitString`.
    public static let healthKitQuantities: [HealthKitQuantity] = [
        .stepCount, .appleExerciseTime, .activeEnergyBurned, .distanceWalkingRunning,
    ]

    /// A day's totals from each quantity's sum for the day; a missing sum counts as zero.
    public init(healthKitSums sums: [HealthKitQuantity: Double]) {
        self.init(
            steps: Int((sums[.stepCount] ?? 0).rounded()),
            duration: Self.seconds(exerciseMinutes: sums[.appleExerciseTime] ?? 0),
            calories: sums[.activeEnergyBurned] ?? 0, distance: sums[.distanceWalkingRunning] ?? 0)
    }

    /// HealthKit counts exercise time in minutes; Hale's `duration` is in seconds.
    public static func seconds(exerciseMinutes minutes: Double) -> Double {
        minutes * 60
    }

    /// The days from the one holding `from` through the one holding `to`, local midnight to local midnight.
    public static func healthKitInterval(from: Date, to: Date, calendar: Calendar) -> DateInterval {
        let start = calendar.startOfDay(for: from)
        let lastDay = calendar.startOfDay(for: max(from, to))
        let end = calendar.date(byAdding: .day, value: 1, to: lastDay) ?? lastDay
        return DateInterval(start: start, end: end)
    }

    /// Each day of `interval` with its totals, in order, from each quantity's sums keyed by the start of their day;
    /// a day with no data has zero totals.
    public static func days(
        in interval: DateInterval, calendar: Calendar, healthKitSums sums: [HealthKitQuantity: [Date: Double]]
    ) -> [(day: Date, totals: DailyHealthTotals)] {
        var days: [(day: Date, totals: DailyHealthTotals)] = []
        var day = interval.start
        while day < interval.end {
            let daySums = sums.compactMapValues { $0[day] }
            days.append((day, DailyHealthTotals(healthKitSums: daySums)))
            guard let next = calendar.date(byAdding: .day, value: 1, to: day), next > day else { break }
            day = next
        }
        return days
    }
}
