import Testing

@testable import HealthSamples

@Suite("Health samples: types, providers and units")
struct HealthSampleTypeTests {
    @Test(
        "types are read by raw value, seed 004's camelCase, HealthKit and Health Connect names",
        arguments: [
            ("steps", HealthSampleType.steps), ("distance", .distance), ("calories", .calories),
            ("active_minutes", .activeMinutes), ("workouts", .workouts), ("oxygen_saturation", .oxygenSaturation),
            ("activeMinutes", .activeMinutes),
            ("HKQuantityTypeIdentifierStepCount", .steps),
            ("HKQuantityTypeIdentifierDistanceWalkingRunning", .distance),
            ("HKQuantityTypeIdentifierActiveEnergyBurned", .calories),
            ("HKQuantityTypeIdentifierAppleExerciseTime", .activeMinutes), ("HKWorkoutTypeIdentifier", .workouts),
            ("HKQuantityTypeIdentifierOxygenSaturation", .oxygenSaturation),
            ("StepsRecord", .steps), ("DistanceRecord", .distance), ("ActiveCaloriesBurnedRecord", .calories),
            ("ExerciseSessionRecord", .workouts), ("OxygenSaturationRecord", .oxygenSaturation),
        ])
    func typeAliases(name: String, type: HealthSampleType) {
        #expect(HealthSampleType(parsing: name) == type)
    }

    @Test(
        "unknown type names are not read", arguments: ["", "Steps", "heart_rate", "HKQuantityTypeIdentifierHeartRate"])
    func unknownTypes(name: String) {
        #expect(HealthSampleType(parsing: name) == nil)
    }

    @Test("canonical units")
    func canonicalUnits() {
        #expect(HealthSampleType.steps.canonicalUnit == .count)
        #expect(HealthSampleType.distance.canonicalUnit == .meters)
        #expect(HealthSampleType.calories.canonicalUnit == .kilocalories)
        #expect(HealthSampleType.activeMinutes.canonicalUnit == .seconds)
        #expect(HealthSampleType.workouts.canonicalUnit == .seconds)
        #expect(HealthSampleType.oxygenSaturation.canonicalUnit == .percent)
    }

    @Test(
        "providers and their aliases",
        arguments: [
            ("healthkit", HealthProvider.healthkit), ("apple", .healthkit), ("health_connect", .healthConnect),
            ("googlefit", .googleFit), ("google_fit", .googleFit), ("google", .googleFit),
        ])
    func providers(name: String, provider: HealthProvider) {
        #expect(HealthProvider(parsing: name) == provider)
    }

    @Test("unknown providers are not read", arguments: ["", "HealthKit", "fitbit"])
    func unknownProviders(name: String) {
        #expect(HealthProvider(parsing: name) == nil)
    }

    @Test("unit strings are case-sensitive: Cal is a kilocalorie, cal a small calorie")
    func unitCase() {
        #expect(HealthUnit(parsing: "Cal") == .kilocalories)
        #expect(HealthUnit(parsing: "cal") == .smallCalories)
        #expect(HealthUnit(parsing: "KCAL") == nil)
        #expect(HealthUnit(parsing: "kj") == nil)
        #expect(HealthUnit(parsing: "h") == .hours)
        #expect(HealthUnit(parsing: "percent") == .percent)
        #expect(HealthUnit(parsing: "%") == .percent)
    }
}
