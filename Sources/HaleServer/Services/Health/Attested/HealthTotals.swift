/// A day's (or a period's) activity totals. Calories and distance are kept in hundredths, so sums are exact and a
/// summary always equals the sum of its items.
///
/// Every measure is kept within ±`largestMeasure`, clamped where it is made: far above any plausible period, and
/// small enough that adding two can never overflow. So no arithmetic on totals can trap, whatever storage or a
/// client held.
public struct HealthTotals: Sendable, Equatable {
    /// Steps.
    public let steps: Int64
    /// Active duration, in seconds.
    public let duration: Int64
    /// Kilocalories × 100.
    public let caloriesHundredths: Int64
    /// Metres × 100.
    public let distanceHundredths: Int64

    /// The largest a measure can be: 10^15, ten billion times seed 001's daily step limit, with room for 9,000 of
    /// them in 64 bits.
    public static let largestMeasure: Int64 = 1_000_000_000_000_000

    /// Nothing.
    public static let zero = HealthTotals(steps: 0, duration: 0, caloriesHundredths: 0, distanceHundredths: 0)

    /// Totals, each measure clamped to ±`largestMeasure`.
    public init(steps: Int64, duration: Int64, caloriesHundredths: Int64, distanceHundredths: Int64) {
        self.steps = Self.clamped(steps)
        self.duration = Self.clamped(duration)
        self.caloriesHundredths = Self.clamped(caloriesHundredths)
        self.distanceHundredths = Self.clamped(distanceHundredths)
    }

    /// Kilocalories.
    public var calories: Double { Double(caloriesHundredths) / 100 }
    /// Metres.
    public var distance: Double { Double(distanceHundredths) / 100 }

    /// Both added up; a sum beyond `largestMeasure` is clamped, never an overflow.
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

    /// A value as whole units, rounded half away from zero and clamped to ±`largestMeasure`; NaN is 0.
    public static func whole(_ value: Double) -> Int64 {
        clamped(value.rounded(.toNearestOrAwayFromZero))
    }

    /// Hundredths of a value, rounded half away from zero and clamped to ±`largestMeasure`; NaN is 0.
    public static func hundredths(_ value: Double) -> Int64 {
        clamped((value * 100).rounded(.toNearestOrAwayFromZero))
    }

    private static func clamped(_ value: Int64) -> Int64 {
        min(max(value, -largestMeasure), largestMeasure)
    }

    /// The one conversion from a floating-point value: exact within range, never a trap outside it.
    private static func clamped(_ value: Double) -> Int64 {
        guard !value.isNaN else { return 0 }
        let limit = Double(largestMeasure)
        return Int64(min(max(value, -limit), limit))
    }
}
