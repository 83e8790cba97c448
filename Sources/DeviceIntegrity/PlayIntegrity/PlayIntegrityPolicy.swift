/// What a Play Integrity verdict must meet to be accepted.
public struct PlayIntegrityPolicy: Sendable {
    /// The accepted `appIntegrity.appRecognitionVerdict` values.
    public var appRecognitionVerdicts: Set<String> = ["PLAY_RECOGNIZED"]
    /// The label `deviceIntegrity.deviceRecognitionVerdict` must contain.
    public var requiredDeviceRecognitionVerdict: String = "MEETS_DEVICE_INTEGRITY"
    /// The accepted `accountDetails.appLicensingVerdict` values; `nil` does not check licensing.
    public var licensingVerdicts: Set<String>? = nil
    /// How old a token's `timestampMillis` may be.
    public var maximumAge: Duration = .seconds(300)
    /// How far in the future `timestampMillis` may lie, for clocks that disagree.
    public var maximumClockSkew: Duration = .seconds(30)

    /// The default policy: a Play-recognized app on a device that meets device integrity, at most 5 minutes old.
    public init() {}
}

extension Duration {
    /// The duration in seconds, as `Date` arithmetic takes it.
    var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
