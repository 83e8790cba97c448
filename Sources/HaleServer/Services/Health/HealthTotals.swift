/// A day's (or a period's) activity totals. Calories and distance are kept in hundredths, so sums are exact and a
/// summary always equals the sum of its items.
public struct HealthTotals: Sendable, Equatable {
    /// Steps.
    public var steps: Int64
    /// Active duration, in seconds.
    public var duration: Int64
    /// Kilocalories × 100.
    public var caloriesHundredths: Int64
    /// Metres × 100.
    public var distanceHundredths: Int64

    /// Nothing.
    public static let zero = HealthTotals(steps: 0, duration: 0, caloriesHundredths: 0, distanceHundredths: 0)

    /// Creates totals.
    public init(steps: Int64, duration: Int64, caloriesHundredths: Int64, distanceHundredths: Int64) {
        self.steps = steps
        self.duration = duration
        self.caloriesHundredths = caloriesHundredths
        self.distanceHundredths = distanceHundredths
    }

    /// Kilocalories.
    public var calories: Double { Double(caloriesHundredths) / 100 }
    /// Metres.
    public var distance: Double { Double(distanceHundredths) / 100 }

    /// Both added up.
    public static func + (lhs: HealthTotals, rhs: HealthTotals) -> HealthTotals {
        HealthTotals(
            steps: lhs.steps + rhs.steps, duration: lhs.duration + rhs.duration,
            caloriesHundredths: lhs.caloriesHundredths + rhs.caloriesHundredths,
            distanceHundredths: lhs.distanceHundredths + rhs.distanceHundredths)
    }

    /// Each measure's larger value: the day as told by whichever source saw more of it.
    public static func larger(_ lhs: HealthTotals, _ rhs: HealthTotals) -> HealthTotals {
        HealthTotals(
            steps: max(lhs.steps, rhs.steps), duration: max(lhs.duration, rhs.duration),
            caloriesHundredths: max(lhs.caloriesHundredths, rhs.caloriesHundredths),
            distanceHundredths: max(lhs.distanceHundredths, rhs.distanceHundredths))
    }

    /// Hundredths of a value, rounded half away from zero.
    public static func hundredths(_ value: Double) -> Int64 {
        Int64((value * 100).rounded(.toNearestOrAwayFromZero))
    }
}
