/// The health platform a sample was read from on the device.
public enum HealthProvider: String, CaseIterable, Sendable, Codable {
    /// Apple HealthKit (iOS, watchOS).
    case healthkit
    /// Android Health Connect.
    case healthConnect = "health_connect"
    /// Google Fit, the predecessor of Health Connect; seed 004 spells it `googlefit`.
    case googleFit = "googlefit"

    /// Reads the raw value or an alias clients send: `google_fit`, and seed 000's platforms `apple` and `google`.
    /// `nil` for anything else.
    public init?(parsing name: String) {
        switch name {
        case "apple": self = .healthkit
        case "google_fit", "google": self = .googleFit
        default:
            guard let provider = Self(rawValue: name) else { return nil }
            self = provider
        }
    }

    /// How this platform writes a percentage: HealthKit's `%` unit carries a fraction (0.97 is 97%), Health Connect
    /// and Google Fit carry 0–100. Decided by the platform, never by the size of the value.
    public var percentScale: PercentScale {
        self == .healthkit ? .fraction : .hundred
    }

    /// How a platform writes a percentage.
    public enum PercentScale: Sendable {
        /// 0…1, where 1 is 100%.
        case fraction
        /// 0…100.
        case hundred
    }
}
