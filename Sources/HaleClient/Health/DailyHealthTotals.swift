/// One day of activity, as seed 001's apps submit it and statistics report it.
public struct DailyHealthTotals: Sendable, Hashable, Codable {
    /// Steps.
    public var steps: Int
    /// Active time, in seconds.
    public var duration: Double
    /// Active energy, in kilocalories.
    public var calories: Double
    /// Distance, in metres.
    public var distance: Double

    /// Totals.
    public init(steps: Int, duration: Double, calories: Double, distance: Double) {
        self.steps = steps
        self.duration = duration
        self.calories = calories
        self.distance = distance
    }
}
