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
    /// Whether it may sign in.
    public let active: Bool
    /// When it was registered.
    public let createdAt: Date
    /// When it was deactivated.
    public let deactivatedAt: Date?
    /// Until when failed signatures lock it out.
    public let lockedUntil: Date?
    /// Its keys.
    public let keys: [Key]
    /// Its sessions.
    public let sessions: [Session]
}
