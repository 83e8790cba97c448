import Foundation

/// The device-key lockout rule: `threshold` failed signatures from one client network, each within `duration` of
/// the one before, lock that network out of the device for `duration`.
struct SignInLockout: Sendable {
    /// Failures that lock (`deviceKeys.lockoutThreshold`).
    let threshold: Int64
    /// How long a lock lasts, and how long a failure is remembered (`deviceKeys.lockoutDuration`).
    let duration: TimeInterval

    /// The rule of the `deviceKeys.*` settings.
    init(_ settings: HaleConfiguration.DeviceKeys) {
        threshold = Int64(settings.lockoutThreshold)
        duration = settings.lockoutDuration.timeInterval
    }

    /// What a request with no client address is counted as: only in-process requests have none.
    static let unknownNetwork = "unknown"

    /// The network a sign-in from `ip` is counted under: its IPv4 address or IPv6 /64.
    static func network(of ip: String?) -> String {
        ip.flatMap { IPAddress($0) }.map { ClientNetwork($0).description } ?? unknownNetwork
    }
}
