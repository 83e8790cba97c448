/// The local days a fitness challenge counts, from `first` through `last` inclusive, in each participant's own
/// local days (the days of their rollups).
public struct ChallengeWindow: Hashable, Sendable {
    /// The first day counted.
    public let first: LocalDate
    /// The last day counted.
    public let last: LocalDate

    /// A window, or `nil` when `last` is before `first`.
    public init?(first: LocalDate, last: LocalDate) {
        guard first <= last else { return nil }
        self.first = first
        self.last = last
    }

    /// Whether `day` is in the window.
    public func contains(_ day: LocalDate) -> Bool {
        first <= day && day <= last
    }

    /// A participant's progress: for a cumulative type, the sum of the daily rollups of `type` on days in the
    /// window; for oxygen saturation, the mean over the window's samples (daily means weighted by sample count),
    /// or 0 when there are none. `rollups` holds at most one rollup per day and type, as `DailyRollup` makes them.
    public func progress(of type: HealthSampleType, in rollups: [DailyRollup]) -> Double {
        let counted = rollups.filter { $0.type == type && contains($0.day) }
        guard !type.isCumulative else { return counted.reduce(0) { $0 + $1.value } }
        let samples = counted.reduce(0) { $0 + $1.sampleCount }
        guard samples > 0 else { return 0 }
        return counted.reduce(0) { $0 + $1.value * Double($1.sampleCount) } / Double(samples)
    }
}
