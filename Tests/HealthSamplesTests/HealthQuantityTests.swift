import Testing

@testable import HealthSamples

@Suite("Health samples: normalisation to canonical units")
struct HealthQuantityTests {
    static func value(_ type: String, _ value: Double, _ unit: String, _ provider: HealthProvider = .healthkit) throws
        -> Double
    {
        try HealthQuantity(type: type, value: value, unit: unit, provider: provider).value
    }

    @Test(
        "conversions with known values",
        arguments: [
            ("distance", 1.0, "mi", 1609.344), ("distance", 1, "km", 1000), ("distance", 250, "cm", 2.5),
            ("distance", 1500, "mm", 1.5), ("distance", 10, "ft", 3.048), ("distance", 100, "yd", 91.44),
            ("distance", 12, "in", 0.3048), ("distance", 42.195, "m", 42.195),
            ("calories", 1, "kJ", 0.239006), ("calories", 1000, "cal", 1), ("calories", 250, "Cal", 250),
            ("calories", 250, "kcal", 250), ("calories", 4184, "J", 1),
            ("active_minutes", 1, "hr", 3600), ("active_minutes", 2, "h", 7200), ("active_minutes", 30, "min", 1800),
            ("workouts", 90_000, "ms", 90), ("workouts", 45, "s", 45), ("steps", 5000, "count", 5000),
        ])
    func conversions(type: String, value: Double, unit: String, expected: Double) throws {
        let converted = try Self.value(type, value, unit)
        #expect(abs(converted - expected) < 1e-6 * max(1, expected), "\(value) \(unit) → \(converted)")
    }

    @Test("HealthKit's % is a fraction: 0.97 is 97%")
    func healthKitFraction() throws {
        #expect(try Self.value("oxygen_saturation", 0.97, "%", .healthkit) == 97)
        #expect(try Self.value("HKQuantityTypeIdentifierOxygenSaturation", 1, "%", .healthkit) == 100)
    }

    @Test("Health Connect's percent is 0–100, even when the value is small")
    func healthConnectPercent() throws {
        #expect(try Self.value("OxygenSaturationRecord", 97, "percent", .healthConnect) == 97)
        #expect(try Self.value("OxygenSaturationRecord", 0.97, "percent", .healthConnect) == 0.97)
        #expect(try Self.value("oxygen_saturation", 95.5, "%", .googleFit) == 95.5)
    }

    @Test("UNKNOWN_TYPE")
    func unknownType() {
        #expect(throws: HealthSampleError.unknownType) { try Self.value("heart_rate", 60, "count") }
    }

    @Test("UNKNOWN_UNIT")
    func unknownUnit() {
        #expect(throws: HealthSampleError.unknownUnit) { try Self.value("distance", 1, "furlong") }
    }

    @Test("UNIT_MISMATCH")
    func unitMismatch() {
        #expect(throws: HealthSampleError.unitMismatch) { try Self.value("steps", 100, "kcal") }
    }

    @Test("VALUE_NOT_FINITE")
    func valueNotFinite() {
        #expect(throws: HealthSampleError.valueNotFinite) { try Self.value("steps", .nan, "count") }
    }

    @Test("VALUE_NEGATIVE")
    func valueNegative() {
        #expect(throws: HealthSampleError.valueNegative) { try Self.value("calories", -5, "kcal") }
    }

    @Test("VALUE_OUT_OF_RANGE: a HealthKit fraction above 1")
    func healthKitFractionOutOfRange() {
        #expect(throws: HealthSampleError.valueOutOfRange) { try Self.value("oxygen_saturation", 97, "%", .healthkit) }
    }

    @Test("VALUE_OUT_OF_RANGE: a Health Connect percent above 100")
    func percentOutOfRange() {
        #expect(throws: HealthSampleError.valueOutOfRange) {
            try Self.value("oxygen_saturation", 100.5, "percent", .healthConnect)
        }
    }

    @Test("VALUE_OUT_OF_RANGE: too large to convert")
    func conversionOverflow() {
        #expect(throws: HealthSampleError.valueOutOfRange) { try Self.value("distance", 1e308, "mi") }
    }

    @Test("codes are stable")
    func codes() {
        let errors: [HealthSampleError] = [
            .unknownType, .unknownUnit, .unitMismatch, .valueNotFinite, .valueNegative, .valueOutOfRange,
            .endBeforeStart, .utcOffsetOutOfRange, .dateOutOfRange,
        ]
        #expect(
            errors.map(\.code) == [
                "UNKNOWN_TYPE", "UNKNOWN_UNIT", "UNIT_MISMATCH", "VALUE_NOT_FINITE", "VALUE_NEGATIVE",
                "VALUE_OUT_OF_RANGE", "END_BEFORE_START", "UTC_OFFSET_OUT_OF_RANGE", "DATE_OUT_OF_RANGE",
            ])
    }
}
