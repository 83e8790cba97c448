import Foundation

extension HealthKitQuantity {
    /// The sync sample for a HealthKit sample of this type, filling in what HealthKit leaves implicit: the time zone
    /// from `HKMetadataKeyTimeZone`, else `deviceTimeZone`; the device type from the device model; and
    /// `HKMetadataKeyWasUserEntered` as `false` when absent.
    public func sample(
        uuid: String, value: Double, start: Date, end: Date, timeZoneMetadata: String?, deviceTimeZone: TimeZone,
        sourceBundle: String?, deviceModel: String?, userEnteredMetadata: Bool?
    ) -> HealthSyncSample {
        sample(
            uuid: uuid, value: value, start: start, end: end,
            timeZone: Self.timeZone(metadata: timeZoneMetadata, fallback: deviceTimeZone), sourceBundle: sourceBundle,
            deviceModel: deviceModel, deviceType: Self.deviceType(model: deviceModel),
            userEntered: userEnteredMetadata ?? false)
    }

    /// The time zone `HKMetadataKeyTimeZone` names (an identifier such as `Europe/Paris`, or an abbreviation some
    /// apps write), else `fallback`.
    public static func timeZone(metadata name: String?, fallback: TimeZone) -> TimeZone {
        guard let name, !name.isEmpty else { return fallback }
        return TimeZone(identifier: name) ?? TimeZone(abbreviation: name) ?? fallback
    }

    /// `watch`, `phone` or `other` for an `HKDevice` model such as `Watch` or `iPhone`; `nil` when there is no model.
    public static func deviceType(model: String?) -> String? {
        guard let model else { return nil }
        let lowercased = model.lowercased()
        if lowercased.contains("watch") { return "watch" }
        if lowercased.contains("iphone") { return "phone" }
        return "other"
    }
}
