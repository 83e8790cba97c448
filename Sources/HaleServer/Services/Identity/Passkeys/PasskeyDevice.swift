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

    /// The platforms seed 000's apps send, and `web` for browsers.
    public static let platforms = ["ios", "android", "web"]
    /// `UIDevice.systemVersion` and Android's `Build.VERSION.RELEASE` are a few characters; a web app may send a
    /// piece of its user agent (Hale's browser test sends 40 characters).
    public static let osVersionRule = TextRule(1...64, .characters, .printableASCII)

    /// The description with each field checked and the device name trimmed; an `InvalidInput` naming the first field
    /// that is wrong, its name prefixed with `fieldPrefix` (`deviceInfo.` where the body nests it).
    public func checked(fieldPrefix: String = "") throws -> PasskeyDevice {
        if let platform, !Self.platforms.contains(platform) {
            // Not `.oneOf`: the period is the wire's, which tests pin.
            throw InvalidInput(
                "\(fieldPrefix)platform", .form("one of: \(Self.platforms.joined(separator: ", "))."))
        }
        if let osVersion { try Self.osVersionRule.check(osVersion, field: "\(fieldPrefix)osVersion") }
        return PasskeyDevice(
            platform: platform, osVersion: osVersion,
            deviceName: try deviceName.map { try TextRule.name.checkTrimmed($0, field: "\(fieldPrefix)deviceName") })
    }
}
