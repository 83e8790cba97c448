/// A validated value of a sample type, in the type's canonical unit.
public struct HealthQuantity: Hashable, Sendable {
    /// What was measured.
    public let type: HealthSampleType
    /// The value in `type.canonicalUnit`: finite, not negative, a percentage within 0…100.
    public let value: Double

    /// Validates a value already in the canonical unit, such as one read back from storage.
    public init(type: HealthSampleType, canonicalValue value: Double) throws(HealthSampleError) {
        guard value.isFinite else { throw .valueNotFinite }
        guard value >= 0 else { throw .valueNegative }
        if type.canonicalUnit == .percent, value > 100 { throw .valueOutOfRange }
        self.type = type
        self.value = value + 0  // -0.0 becomes 0.0
    }

    /// Normalises a sample as a client sent it: the type and unit names, the value in that unit, and the platform.
    ///
    /// Checks, in order: the type is known (`UNKNOWN_TYPE`), the unit is known (`UNKNOWN_UNIT`) and measures the
    /// type (`UNIT_MISMATCH`), the value is finite (`VALUE_NOT_FINITE`) and not negative (`VALUE_NEGATIVE`), and a
    /// percentage is within the provider's range — 0…1 for HealthKit's fraction, 0…100 otherwise — as is any
    /// value after conversion (`VALUE_OUT_OF_RANGE`).
    public init(type typeName: String, value: Double, unit unitName: String, provider: HealthProvider)
        throws(HealthSampleError)
    {
        guard let type = HealthSampleType(parsing: typeName) else { throw .unknownType }
        guard let unit = HealthUnit(parsing: unitName) else { throw .unknownUnit }
        guard unit.dimension == type.canonicalUnit.dimension else { throw .unitMismatch }
        guard value.isFinite else { throw .valueNotFinite }
        guard value >= 0 else { throw .valueNegative }
        let converted = unit.canonicalValue(of: value, percentScale: provider.percentScale)
        // A HealthKit fraction above 1 is refused even though 100× it might look plausible: no guessing by size.
        guard converted.isFinite else { throw .valueOutOfRange }
        try self.init(type: type, canonicalValue: converted)
    }
}
