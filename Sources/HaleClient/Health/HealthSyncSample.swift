import Foundation

/// One sample of `POST /api/v1/health/sync` (seed 004): a HealthKit or Health Connect record, identified by `id` so
/// that sending it again updates it rather than counting it twice.
public struct HealthSyncSample: Sendable, Hashable, Codable {
    /// The record's identifier on the device, such as a HealthKit UUID.
    public var id: String?
    /// `steps`, `distance`, `calories`, `active_minutes`, `workouts`, `oxygen_saturation`, or a HealthKit or Health
    /// Connect type name.
    public var type: String
    /// The value, in `unit`.
    public var value: Double
    /// The unit, such as `count`, `m`, `kcal`, `min` or `%`.
    public var unit: String
    /// When the sample starts, ISO 8601.
    public var startDate: String
    /// When it ends, ISO 8601.
    public var endDate: String
    /// The device's UTC offset when it was recorded, such as `+02:00`; it decides the sample's local day.
    public var timeZoneOffset: String?
    /// The app that wrote it.
    public var sourceBundle: String?
    /// The device model that measured it.
    public var deviceModel: String?
    /// `phone`, `watch`, `ring`, `scale` or `other`.
    public var deviceType: String?
    /// Whether a person typed it in rather than a sensor measuring it.
    public var userEntered: Bool
    /// The record's version, if the platform keeps one.
    public var version: Int64?

    /// A sample from `start` to `end`, its local day that of `timeZone`.
    public init(
        id: String?, type: String, value: Double, unit: String, start: Date, end: Date,
        timeZone: TimeZone = .current, sourceBundle: String? = nil, deviceModel: String? = nil,
        deviceType: String? = nil, userEntered: Bool = false, version: Int64? = nil
    ) {
        self.id = id
        self.type = type
        self.value = value
        self.unit = unit
        startDate = Self.timestamp(start)
        endDate = Self.timestamp(end)
        timeZoneOffset = Self.offset(of: timeZone, at: start)
        self.sourceBundle = sourceBundle
        self.deviceModel = deviceModel
        self.deviceType = deviceType
        self.userEntered = userEntered
        self.version = version
    }

    /// `2026-11-22T08:30:00.000Z`.
    static func timestamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }

    /// `+02:00`, `-05:30`, `+00:00`.
    static func offset(of timeZone: TimeZone, at date: Date) -> String {
        let seconds = timeZone.secondsFromGMT(for: date)
        let minutes = abs(seconds) / 60
        let sign = seconds < 0 ? "-" : "+"
        return sign + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}
