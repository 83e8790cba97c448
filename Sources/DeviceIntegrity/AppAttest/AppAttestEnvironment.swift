/// The App Attest environment a key was made in, as the app's entitlement selects it.
public enum AppAttestEnvironment: String, Sendable, CaseIterable {
    /// Apps built for development: the AAGUID is `appattestdevelop`.
    case development
    /// Apps from the App Store, TestFlight or enterprise distribution: the AAGUID is `appattest` and seven zeros.
    case production

    /// The 16-byte AAGUID of attestations made in this environment.
    public var aaguid: [UInt8] {
        switch self {
        case .development: Array("appattestdevelop".utf8)
        case .production: Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
        }
    }
}
