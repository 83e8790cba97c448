extension HealthProvider {
    /// The platform whose consent covers the provider's data.
    public var platform: HealthPlatform {
        switch self {
        case .healthkit: .apple
        case .googleFit: .google
        case .healthConnect: .healthConnect
        }
    }
}

extension HealthPlatform {
    /// The provider seed 000's platform syncs as: `apple` is HealthKit, `google` Google Fit.
    public var provider: HealthProvider {
        switch self {
        case .apple: .healthkit
        case .google: .googleFit
        case .healthConnect: .healthConnect
        }
    }
}
