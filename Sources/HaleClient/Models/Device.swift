import Foundation

/// A device of the account.
public struct Device: Sendable, Hashable, Decodable {
    /// A key registered on the device.
    public struct Key: Sendable, Hashable, Decodable {
        /// Its id.
        public let id: String
        /// `EC` or `RSA`.
        public let keyType: String
        /// The signature convention the server saw it use.
        public let signatureConvention: String
        /// When it was registered.
        public let createdAt: Date
        /// When it last signed in.
        public let lastUsedAt: Date?
        /// When it was revoked.
        public let revokedAt: Date?
    }

    /// A passkey made on the device.
    public struct Passkey: Sendable, Hashable, Decodable {
        /// Its id.
        public let id: String
        /// Its name.
        public let name: String
        /// When it was registered.
        public let createdAt: Date
        /// When it last signed in.
        public let lastUsedAt: Date?
    }

    /// A push service the device is registered with.
    public struct PushRegistration: Sendable, Hashable, Decodable {
        /// `apns` or `fcm`.
        public let provider: String
        /// When its token was last set.
        public let updatedAt: Date?
    }

    /// A session signed in on the device.
    public struct Session: Sendable, Hashable, Decodable {
        /// Its id.
        public let id: String
        /// How it signed in.
        public let signInMethod: String
        /// When it ends unless refreshed.
        public let expiresAt: Date
        /// Whether it is the session asking.
        public let current: Bool
    }

    /// Its id.
    public let id: String
    /// Its name.
    public let name: String
    /// What kind of device, such as `mobile`.
    public let deviceType: String
    /// Whether it may sign in.
    public let active: Bool
    /// When it was registered.
    public let createdAt: Date
    /// When it last signed in.
    public let lastUsedAt: Date?
    /// When it was deactivated.
    public let deactivatedAt: Date?
    /// Until when failed signatures lock it out.
    public let lockedUntil: Date?
    /// Its keys.
    public let keys: [Key]
    /// The passkeys made on it.
    public let passkeys: [Passkey]
    /// Where its push notifications go.
    public let pushTokens: [PushRegistration]
    /// Its sessions.
    public let sessions: [Session]
    /// How it can sign in or has: `device_key`, `passkey`, and its sessions' methods.
    public let signInMethods: [String]
}

/// What deactivating or deleting a device revoked.
public struct DeviceRevocation: Sendable, Hashable, Decodable {
    /// Device keys revoked.
    public let deviceKeys: Int
    /// Sessions ended.
    public let sessions: Int
    /// Personal access tokens revoked: those social sign-ins on the device were issued.
    public let personalAccessTokens: Int
    /// The ids of the passkeys deleted: those registered from the device that live only there, and the synced ones
    /// when asked.
    public let passkeys: [String]
}
