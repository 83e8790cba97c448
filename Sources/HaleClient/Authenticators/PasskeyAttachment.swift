/// Where a passkey the platform made lives: on this device, or on another one reached through hybrid transport
/// (a phone scanning a QR code).
public enum PasskeyAttachment: String, Sendable {
    /// This device's passkey provider, such as iCloud Keychain.
    case platform
    /// Another device, reached through hybrid transport.
    case crossPlatform = "cross-platform"

    /// The transports the registration reports: a platform passkey is used here and, synced, from other devices
    /// through hybrid transport.
    public var transports: [String] {
        switch self {
        case .platform: ["internal", "hybrid"]
        case .crossPlatform: ["hybrid"]
        }
    }
}
