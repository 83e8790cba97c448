/// What an app says about the device a passkey is made on: `{platform, osVersion, deviceName}` in seed 000.
public struct PasskeyDevice: Codable, Sendable, Hashable {
    /// `ios`, `android` or `web`.
    public var platform: String?
    /// The OS version.
    public var osVersion: String?
    /// The device's name.
    public var deviceName: String?

    /// A device description.
    public init(platform: String? = nil, osVersion: String? = nil, deviceName: String? = nil) {
        self.platform = platform
        self.osVersion = osVersion
        self.deviceName = deviceName
    }
}
