/// Why a health sample was refused: a stable `code` and a `message` safe to show a client.
///
/// A struct wrapping a private enum, so new reasons can be added without breaking callers that switch on codes.
/// Messages never contain the sample's value: health values stay out of logs and error bodies. A message may name
/// the limit the sample broke, which is configuration, not health data.
public struct HealthSampleError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Reason: Hashable, Sendable {
        case unknownType, unknownUnit, unitMismatch, valueNotFinite, valueNegative, valueOutOfRange
        case endBeforeStart, utcOffsetOutOfRange, dateOutOfRange
        case valueImplausible(limit: String)
        case durationTooLong(limit: String)
        case tooOld(limit: String)
        case inFuture(limit: String)
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
    /// A time is outside the years 1 to 9999, or the sample lasts longer than any sample may.
    public static let dateOutOfRange = Self(.dateOutOfRange)

    /// The value is above what the type can plausibly hold; `limit` says what the limit is, such as
    /// `100000 steps a day`.
    public static func valueImplausible(limit: String) -> Self { Self(.valueImplausible(limit: limit)) }
    /// The sample lasts longer than its type allows; `limit` says how long, such as `1 day`.
    public static func durationTooLong(limit: String) -> Self { Self(.durationTooLong(limit: limit)) }
    /// The sample starts too long before now; `limit` says how long, such as `366 days`.
    public static func tooOld(limit: String) -> Self { Self(.tooOld(limit: limit)) }
    /// The sample starts too far after now; `limit` says how far, such as `1 day`.
    public static func inFuture(limit: String) -> Self { Self(.inFuture(limit: limit)) }

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
        case .dateOutOfRange: "DATE_OUT_OF_RANGE"
        case .valueImplausible: "VALUE_IMPLAUSIBLE"
        case .durationTooLong: "DURATION_TOO_LONG"
        case .tooOld: "SAMPLE_TOO_OLD"
        case .inFuture: "SAMPLE_IN_FUTURE"
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
        case .dateOutOfRange: "The sample's times must lie within the years 1 to 9999."
        case .valueImplausible(let limit): "The value is implausibly high: at most \(limit)."
        case .durationTooLong(let limit): "The sample lasts too long: at most \(limit)."
        case .tooOld(let limit): "The sample is too old: it must start within the last \(limit)."
        case .inFuture(let limit): "The sample starts in the future: at most \(limit) ahead of the server's clock."
        }
    }

    /// The code and the message.
    public var description: String { "\(code): \(message)" }
}
