/// A health-data provider a connection is made to, as seed 004 names it.
public enum HealthProviderName: String, Sendable, Codable, CaseIterable {
    /// Apple HealthKit.
    case healthkit
    /// Google Fit.
    case googlefit
    /// Android's Health Connect.
    case healthConnect = "health_connect"

    /// The platform whose consent covers the provider's data.
    public var platform: HealthPlatform {
        switch self {
        case .healthkit: .apple
        case .googlefit: .google
        case .healthConnect: .healthConnect
        }
    }
}
