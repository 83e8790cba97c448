/// Where a sample came from: the app that wrote it, the device that measured it, and whether a person typed it in.
public struct SampleSource: Hashable, Sendable, Codable {
    /// The writing app: HealthKit's `HKSource.bundleIdentifier`, Health Connect's `DataOrigin.packageName`.
    public var bundleID: String?
    /// The device model: HealthKit's `HKDevice.model` (`Watch`, `iPhone`), Health Connect's `Device.model`.
    public var deviceModel: String?
    /// Health Connect's `Device.type` by name (`watch`, `phone`, `TYPE_WATCH`, …), when the client sends it.
    public var deviceType: String?
    /// Whether a person entered the sample by hand (HealthKit's `HKMetadataKeyWasUserEntered`, Health Connect's
    /// manual-entry recording method).
    public var isUserEntered: Bool
    /// Whether the sample arrived in a write whose app instance Hale attested (App Attest or Play Integrity, over
    /// the write's body): what a verified fitness challenge counts.
    public var isAttested: Bool

    /// A source; every part is optional, an unknown source ranks lowest among device-recorded ones.
    public init(
        bundleID: String? = nil, deviceModel: String? = nil, deviceType: String? = nil, isUserEntered: Bool = false,
        isAttested: Bool = false
    ) {
        self.bundleID = bundleID
        self.deviceModel = deviceModel
        self.deviceType = deviceType
        self.isUserEntered = isUserEntered
        self.isAttested = isAttested
    }

    /// Whether it counts towards a verified challenge: recorded by a device, not typed in, and attested.
    public var isVerified: Bool { isAttested && !isUserEntered }

    /// The kind of device: a watch when the model contains `Watch` or the Health Connect type is a watch; a phone
    /// when the model contains `iPhone` or the Health Connect type is a phone; anything else otherwise. An Android
    /// phone is recognised by its Health Connect device type only: its model name (`Pixel 8`) does not say.
    public var deviceClass: DeviceClass {
        let type = deviceType.map { name in
            let lowered = name.lowercased()
            return lowered.hasPrefix("type_") ? String(lowered.dropFirst(5)) : lowered
        }
        if Self.model(deviceModel, names: "Watch") || type == "watch" { return .watch }
        if Self.model(deviceModel, names: "iPhone") || type == "phone" { return .phone }
        return .other
    }

    /// The same source as far as `priority` can tell: its device only as its class, its app only if the priority
    /// names it, whether it was entered by hand or attested. It ranks as this source does under `priority` and under any priority
    /// with the same app order, and holds no text of the client's: what to keep of each of the many samples that
    /// a day's totals are computed from.
    public func ranked(by priority: SourcePriority) -> SampleSource {
        let model: String? =
            switch deviceClass {
            case .watch: "Watch"
            case .phone: "iPhone"
            case .other: nil
            }
        let app = bundleID.flatMap { bundle in priority.bundleOrder.first { $0 == bundle } }
        return SampleSource(
            bundleID: app, deviceModel: model, deviceType: nil, isUserEntered: isUserEntered, isAttested: isAttested)
    }

    /// Whether the model holds the name, byte for byte: Foundation's `contains`, which a plain `contains` here
    /// resolves to, goes through `NSString`, and was 6% of the event loop's work in an import (`perf`).
    private static func model(_ model: String?, names name: String) -> Bool {
        model?.utf8.firstRange(of: name.utf8) != nil
    }
}
