/// A kind of health sample Hale stores, with the canonical unit its values are kept in.
public enum HealthSampleType: String, CaseIterable, Sendable, Codable {
    /// Step count, in counts.
    case steps
    /// Walking and running distance, in metres.
    case distance
    /// Active energy burned, in kilocalories.
    case calories
    /// Exercise time, in seconds.
    case activeMinutes = "active_minutes"
    /// Workout sessions, their duration in seconds.
    case workouts
    /// Blood oxygen saturation, in percent (0–100).
    case oxygenSaturation = "oxygen_saturation"

    /// Reads the raw value or a name real clients send: seed 004's camelCase, HealthKit type identifiers and
    /// Health Connect record types. Case-sensitive, as those names are; `nil` for anything else.
    public init?(parsing name: String) {
        if let type = Self(rawValue: name) {
            self = type
        } else if let type = Self.aliases[name] {
            self = type
        } else {
            return nil
        }
    }

    /// The unit values of this type are stored in.
    public var canonicalUnit: HealthUnit {
        switch self {
        case .steps: .count
        case .distance: .meters
        case .calories: .kilocalories
        case .activeMinutes, .workouts: .seconds
        case .oxygenSaturation: .percent
        }
    }

    /// Whether values add up over time, so that a sample is split across the days it spans and a day's rollup is
    /// a sum. Oxygen saturation is a measurement, not an accumulation: its rollup is a mean.
    public var isCumulative: Bool {
        self != .oxygenSaturation
    }

    private static let aliases: [String: HealthSampleType] = [
        // Seed 004 (the React Native app) wrote camelCase.
        "activeMinutes": .activeMinutes,
        // HealthKit (HKQuantityTypeIdentifier / HKWorkoutTypeIdentifier).
        "HKQuantityTypeIdentifierStepCount": .steps,
        "HKQuantityTypeIdentifierDistanceWalkingRunning": .distance,
        "HKQuantityTypeIdentifierActiveEnergyBurned": .calories,
        "HKQuantityTypeIdentifierAppleExerciseTime": .activeMinutes,
        "HKWorkoutTypeIdentifier": .workouts,
        "HKQuantityTypeIdentifierOxygenSaturation": .oxygenSaturation,
        // Health Connect record types. Exercise sessions are workouts; exercise time is derived from them.
        "StepsRecord": .steps,
        "DistanceRecord": .distance,
        "ActiveCaloriesBurnedRecord": .calories,
        "ExerciseSessionRecord": .workouts,
        "OxygenSaturationRecord": .oxygenSaturation,
    ]
}
