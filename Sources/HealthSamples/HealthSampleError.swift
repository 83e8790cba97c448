/// Why a health sample was refused: a stable `code` and a `message` safe to show a client.
///
/// A struct wrapping a private enum, so new reasons can be added without breaking callers that switch on codes.
/// Messages never contain the sample's value: health values stay out of logs and error bodies.
public struct HealthSampleError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Reason: Hashable, Sendable {
        case unknownType, unknownUnit, unitMismatch, valueNotFinite, valueNegative, valueOutOfRange
        case endBeforeStart, utcOffsetOutOfRange
    }

    private let reason: Reason

    private init(_ reason: Reason) {
        self.reason = reason
    }

    /// The sample type is not one Hale knows, under any of its accepted names.
    public static let unknownType = Self(.unknownType)
    /// The unit string is not one HealthKit or Health Connect writes for a supported type.
    public static let unknownUnit = Self(.unknownUnit)
    /// The unit measures another kind of quantity than the type, such as kcal for steps.
    public static let unitMismatch = Self(.unitMismatch)
    /// The value is NaN or infinite.
    public static let valueNotFinite = Self(.valueNotFinite)
    /// The value is below zero; no supported type can be negative.
    public static let valueNegative = Self(.valueNegative)
    /// The value is outside its type's range (a percentage above 100%, or too large to convert).
    public static let valueOutOfRange = Self(.valueOutOfRange)
    /// The sample ends before it starts.
    public static let endBeforeStart = Self(.endBeforeStart)
    /// The time-zone offset is beyond ±18 hours.
    public static let utcOffsetOutOfRange = Self(.utcOffsetOutOfRange)

    /// The stable, machine-readable reason, such as `UNIT_MISMATCH`.
    public var code: String {
        switch reason {
        case .unknownType: "UNKNOWN_TYPE"
        case .unknownUnit: "UNKNOWN_UNIT"
        case .unitMismatch: "UNIT_MISMATCH"
        case .valueNotFinite: "VALUE_NOT_FINITE"
        case .valueNegative: "VALUE_NEGATIVE"
        case .valueOutOfRange: "VALUE_OUT_OF_RANGE"
        case .endBeforeStart: "END_BEFORE_START"
        case .utcOffsetOutOfRange: "UTC_OFFSET_OUT_OF_RANGE"
        }
    }

    /// A human-readable explanation that never contains the sample's value.
    public var message: String {
        switch reason {
        case .unknownType: "The sample type is not supported."
        case .unknownUnit: "The unit is not supported."
        case .unitMismatch: "The unit does not measure this sample type."
        case .valueNotFinite: "The value must be a finite number."
        case .valueNegative: "The value must not be negative."
        case .valueOutOfRange: "The value is outside the range of this sample type."
        case .endBeforeStart: "The sample must not end before it starts."
        case .utcOffsetOutOfRange: "The time-zone offset must be within ±18 hours."
        }
    }

    /// The code and the message.
    public var description: String { "\(code): \(message)" }
}
