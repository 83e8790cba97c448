import Foundation

/// One sample of a sync as the wire carries it: a HealthKit or Health Connect record, identified by `id` so that
/// sending it again updates it rather than counting it twice (seed 004's `samples[]`).
///
/// Declared once for all who handle it: the SDK encodes it, the server's surfaces decode their JSON into it, and the
/// sync checks it. Decoding takes what seed 004's clients leave out: a missing `unit` is the one its type implies,
/// a missing `userEntered` is false.
public struct HealthSyncSample: Sendable, Hashable, Codable {
    /// The record's identifier on the device, such as a HealthKit UUID; nil for clients that send none.
    public var id: String?
    /// `steps`, `distance`, `calories`, `active_minutes`, `workouts`, `oxygen_saturation`, or a HealthKit or Health
    /// Connect type name.
    public var type: String
    /// The value, in `unit`.
    public var value: Double
    /// The unit, such as `count`, `m`, `km`, `kcal`, `kJ`, `min` or `%`.
    public var unit: String
    /// When the sample starts, ISO 8601 with a zone.
    public var startDate: String
    /// When it ends, ISO 8601 with a zone.
    public var endDate: String
    /// `±HH:MM`: the device's UTC offset at the start; it decides the sample's local day. Without it, the offset
    /// written in `startDate`, else the account's time zone.
    public var timeZoneOffset: String?
    /// The app that wrote it.
    public var sourceBundle: String?
    /// The device model that measured it (`Watch6,2`, `iPhone15,3`).
    public var deviceModel: String?
    /// The device's type: `phone`, `watch`, `ring`, `scale`, `other`, or Health Connect's `TYPE_WATCH`, `TYPE_PHONE`…
    public var deviceType: String?
    /// Whether a person typed it in rather than a sensor measuring it.
    public var userEntered: Bool
    /// The record's version, increasing with each change, if the platform keeps one.
    public var version: Int64?
    /// Health Connect's last-modified time, ISO 8601: the version when `version` is absent.
    public var lastModified: String?

    /// A sample as the wire writes it.
    public init(
        id: String?, type: String, value: Double, unit: String, startDate: String, endDate: String,
        timeZoneOffset: String? = nil, sourceBundle: String? = nil, deviceModel: String? = nil,
        deviceType: String? = nil, userEntered: Bool = false, version: Int64? = nil, lastModified: String? = nil
    ) {
        self.id = id
        self.type = type
        self.value = value
        self.unit = unit
        self.startDate = startDate
        self.endDate = endDate
        self.timeZoneOffset = timeZoneOffset
        self.sourceBundle = sourceBundle
        self.deviceModel = deviceModel
        self.deviceType = deviceType
        self.userEntered = userEntered
        self.version = version
        self.lastModified = lastModified
    }

    /// A sample from `start` to `end`, its local day that of `timeZone`.
    public init(
        id: String?, type: String, value: Double, unit: String, start: Date, end: Date,
        timeZone: TimeZone = .current, sourceBundle: String? = nil, deviceModel: String? = nil,
        deviceType: String? = nil, userEntered: Bool = false, version: Int64? = nil
    ) {
        self.init(
            id: id, type: type, value: value, unit: unit, startDate: Self.timestamp(start),
            endDate: Self.timestamp(end), timeZoneOffset: Self.offset(of: timeZone, at: start),
            sourceBundle: sourceBundle, deviceModel: deviceModel, deviceType: deviceType, userEntered: userEntered,
            version: version)
    }

    /// Reads a sample, taking the unit its type implies when `unit` is missing and false for a missing
    /// `userEntered`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(String.self, forKey: .id)
        type = try container.decode(String.self, forKey: .type)
        value = try container.decode(Double.self, forKey: .value)
        unit =
            try container.decodeIfPresent(String.self, forKey: .unit)
            ?? HealthSampleType.impliedUnit(ofTypeNamed: type)
        startDate = try container.decode(String.self, forKey: .startDate)
        endDate = try container.decode(String.self, forKey: .endDate)
        timeZoneOffset = try container.decodeIfPresent(String.self, forKey: .timeZoneOffset)
        sourceBundle = try container.decodeIfPresent(String.self, forKey: .sourceBundle)
        deviceModel = try container.decodeIfPresent(String.self, forKey: .deviceModel)
        deviceType = try container.decodeIfPresent(String.self, forKey: .deviceType)
        userEntered = try container.decodeIfPresent(Bool.self, forKey: .userEntered) ?? false
        version = try container.decodeIfPresent(Int64.self, forKey: .version)
        lastModified = try container.decodeIfPresent(String.self, forKey: .lastModified)
    }

    /// `2026-11-22T08:30:00.000Z`.
    static func timestamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }

    /// `+02:00`, `-05:30`, `+00:00`.
    public static func offset(of timeZone: TimeZone, at date: Date) -> String {
        let seconds = timeZone.secondsFromGMT(for: date)
        let minutes = abs(seconds) / 60
        let sign = seconds < 0 ? "-" : "+"
        return sign + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}

extension HealthSampleType {
    /// The unit of a sample that names none (seed 004's samples may leave it out): the canonical unit of the type it
    /// names, but minutes for active minutes, as its name says and HealthKit's exercise time is counted. An unknown
    /// type gets none, and is refused for its type.
    public static func impliedUnit(ofTypeNamed name: String) -> String {
        guard let type = HealthSampleType(parsing: name) else { return "" }
        return type == .activeMinutes ? HealthUnit.minutes.rawValue : type.canonicalUnit.rawValue
    }
}
