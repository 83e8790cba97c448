import Foundation

/// The device a passkey was made on, as the app describes it.
public struct PasskeyDevice: Sendable, Hashable, Codable {
    /// `ios`, `android` or `web`.
    public var platform: String?
    /// The OS version.
    public var osVersion: String?
    /// The device's name.
    public var deviceName: String?

    /// A description.
    public init(platform: String?, osVersion: String? = nil, deviceName: String? = nil) {
        self.platform = platform
        self.osVersion = osVersion
        self.deviceName = deviceName
    }
}

/// A passkey of the account.
public struct Passkey: Sendable, Hashable, Decodable {
    /// Hale's id of the passkey.
    public let id: String
    /// Its name in the passkey list.
    public let name: String
    /// The WebAuthn credential id, base64url.
    public let credentialId: String
    /// The authenticator's AAGUID.
    public let aaguid: String
    /// `none`, `packed`, `apple`, …
    public let attestationFormat: String
    /// Whether it may be synced to other devices.
    public let backupEligible: Bool
    /// Whether it is synced.
    public let backupState: Bool
    /// How the authenticator is reached.
    public let transports: [String]
    /// The device it was made on.
    public let device: PasskeyDevice
    /// When it was registered.
    public let createdAt: Date
    /// When it last signed in.
    public let lastUsedAt: Date?
}

/// A registered passkey; a sign-up also names the new account.
public struct PasskeyRegistration: Sendable, Decodable {
    /// The passkey.
    public let passkey: Passkey
    /// The account it belongs to.
    public let accountId: String?
    let token: String?
    let refreshToken: String?
    let attestationNonce: String?
}

/// A device the account's passkeys were made on.
public struct PasskeyDeviceGroup: Sendable, Hashable, Decodable {
    /// `ios`, `android` or `web`.
    public let platform: String?
    /// The OS version.
    public let osVersion: String?
    /// The device's name.
    public let deviceName: String?
    /// The passkeys made on it.
    public let passkeyIds: [String]
}
