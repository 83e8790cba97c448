import Foundation

/// Why health data is implausible: the limit it broke, as facts that each surface words its own way.
/// `HealthPlausibility` finds it for a sample, a day's total and a challenge's goal alike.
public enum Implausibility: Sendable, Equatable {
    /// A sample lasts longer than its type's longest, in seconds.
    case lastsTooLong(longest: TimeInterval)
    /// A sample starts further back than `oldest` seconds before now.
    case startsTooEarly(oldest: TimeInterval)
    /// A sample starts more than `newest` seconds after now.
    case startsTooLate(newest: TimeInterval)
    /// A value of `type` is above what its days can hold: `maximumPerDay` a day, in the type's canonical unit.
    case valueTooHigh(HealthSampleType, maximumPerDay: Double)
    /// A goal of `type` is above `largest`, what the goal's days can hold at `maximumPerDay` a day.
    case goalTooHigh(HealthSampleType, largest: Double, maximumPerDay: Double)
}
