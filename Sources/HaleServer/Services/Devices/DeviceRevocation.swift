import Foundation

/// What deactivating or deleting a device revoked: everything that let it sign in.
public struct DeviceRevocation: Sendable, Equatable {
    /// Device keys revoked.
    public var deviceKeys: Int
    /// Sessions ended.
    public var sessions: Int
    /// Personal access tokens its sign-ins were issued (social sign-in's), revoked.
    public var personalAccessTokens: Int
    /// Passkeys registered from the device and deleted with it: the device-bound ones (backup eligibility off),
    /// and the synced ones too when asked.
    public var passkeys: [UUID]

    /// The audit event's details: counts, and the passkeys by id.
    var auditDetails: [String: String] {
        [
            "deviceKeys": "\(deviceKeys)", "sessions": "\(sessions)", "personalAccessTokens": "\(personalAccessTokens)",
            "passkeys": passkeys.map { $0.uuidString.lowercased() }.sorted().joined(separator: ","),
        ]
    }
}
