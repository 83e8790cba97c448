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
