import Foundation

/// The HealthKit quantity types Hale syncs, with the unit each is read in and how its value is sent.
///
/// The Apple adapter reads each type with `HKUnit(from: unitString)`; everything else about the mapping lives here,
/// where it is tested on every platform. Values are sent as HealthKit reads them: Hale knows that a `%` from
/// `healthkit` is a fraction (0.97 is 97%), so the SDK must not scale it.
public struct HealthKitQuantity: Sendable, Hashable {
    /// The `HKQuantityTypeIdentifier` raw value, which Hale accepts as the sample type.
    public let identifier: String
    /// The `HKUnit` unit string to read values in.
    public let unitString: String
    /// The unit Hale is told the value is in.
    public let unit: String
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
    /// Blood oxygen, sent as the fraction HealthKit reads (0.97 for 97%).
    public static let oxygenSaturation = HealthKitQuantity(
        "HKQuantityTypeIdentifierOxygenSaturation", unit: "%", isCumulative: false)

    /// Every type Hale syncs.
    public static let all: [HealthKitQuantity] = [
        stepCount, distanceWalkingRunning, activeEnergyBurned, appleExerciseTime, oxygenSaturation,
    ]

    private init(
        _ identifier: String, unit: String, isCumulative: Bool = true
    ) {
        self.identifier = identifier
        unitString = unit
        self.unit = unit
        self.isCumulative = isCumulative
    }

    /// The sync sample for a HealthKit sample of this type whose value, read in `unitString`, is `value`.
    public func sample(
        uuid: String, value: Double, start: Date, end: Date, timeZone: TimeZone, sourceBundle: String?,
        deviceModel: String?, deviceType: String?, userEntered: Bool
    ) -> HealthSyncSample {
        HealthSyncSample(
            id: uuid, type: identifier, value: value, unit: unit, start: start, end: end, timeZone: timeZone,
            sourceBundle: sourceBundle, deviceModel: deviceModel, deviceType: deviceType, userEntered: userEntered)
    }
}
