/// The health platform data comes from, as seed 000 names it.
public enum HealthPlatform: String, Sendable, Codable, CaseIterable, Comparable {
    /// Apple Health (HealthKit).
    case apple
    /// Google Fit.
    case google
    /// Android's Health Connect.
    case healthConnect = "health_connect"

    /// Orders platforms by name, for stable listings.
    public static func < (lhs: HealthPlatform, rhs: HealthPlatform) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
