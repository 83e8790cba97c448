import Foundation

/// The HealthKit quantity types Hale syncs, with the unit each is read in and how its value is sent.
///
/// The Apple adapter reads each type with `HKUnit(from: unit)` and multiplies by `scale`; everything else about the
/// mapping lives here, where it is tested on every platform.
public struct HealthKitQuantity: Sendable, Hashable {
    /// The `HKQuantityTypeIdentifier` raw value, which Hale accepts as the sample type.
    public let identifier: String
    /// The `HKUnit` unit string to read values in.
    public let unitString: String
    /// The unit Hale is told the value is in.
    public let unit: String
    /// What a value read in `unitString` is multiplied by: HealthKit reads percentages as fractions.
    public let scale: Double
    /// Whether values add up over a day (`cumulativeSum`) rather than being averaged.
    public let isCumulative: Bool

    /// Steps.
    public static let stepCount = HealthKitQuantity("HKQuantityTypeIdentifierStepCount", unit: "count")
    /// Walking and running distance.
    public static let distanceWalkingRunning = HealthKitQuantity(
        "HKQuantityTypeIdentifierDistanceWalkingRunning", unit: "m")
    /// Active energy.
    public static let activeEnergyBurned = HealthKitQuantity("HKQuantityTypeIdentifierActiveEnergyBurned", unit: "kcal")
    /// Exercise minutes.
    public static let appleExerciseTime = HealthKitQuantity("HKQuantityTypeIdentifierAppleExerciseTime", unit: "min")
    /// Blood oxygen: HealthKit reads 97% as 0.97.
    public static let oxygenSaturation = HealthKitQuantity(
        "HKQuantityTypeIdentifierOxygenSaturation", unitString: "%", unit: "%", scale: 100, isCumulative: false)

    /// Every type Hale syncs.
    public static let all: [HealthKitQuantity] = [
        stepCount, distanceWalkingRunning, activeEnergyBurned, appleExerciseTime, oxygenSaturation,
    ]

    private init(
        _ identifier: String, unitString: String? = nil, unit: String, scale: Double = 1, isCumulative: Bool = true
    ) {
        self.identifier = identifier
        self.unitString = unitString ?? unit
        self.unit = unit
        self.scale = scale
        self.isCumulative = isCumulative
    }

    /// The sync sample for a HealthKit sample of this type whose value, read in `unitString`, is `value`.
    public func sample(
        uuid: String, value: Double, start: Date, end: Date, timeZone: TimeZone, sourceBundle: String?,
        deviceModel: String?, deviceType: String?, userEntered: Bool
    ) -> HealthSyncSample {
        HealthSyncSample(
            id: uuid, type: identifier, value: value * scale, unit: unit, start: start, end: end, timeZone: timeZone,
            sourceBundle: sourceBundle, deviceModel: deviceModel, deviceType: deviceType, userEntered: userEntered)
    }
}
