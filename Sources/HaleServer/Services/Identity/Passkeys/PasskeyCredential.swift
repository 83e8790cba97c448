import Foundation

/// A passkey registered to an account.
public struct PasskeyCredential: Codable, Sendable, Equatable {
    /// Hale's identifier for the passkey, used in management routes.
    public var id: UUID
    /// The account it signs in to.
    public var accountId: AccountID
    /// The WebAuthn credential ID, base64url.
    public var credentialId: String
    /// The COSE_Key bytes of its public key, base64url.
    public var publicKey: String
    /// The last signature counter seen.
    public var signCount: Int64
    /// The authenticator model's AAGUID.
    public var aaguid: String
    /// The attestation statement format at registration.
    public var attestationFormat: String
    /// Transports, comma-separated.
    public var transports: String
    /// Whether it may be backed up (synced); fixed for its life.
    public var backupEligible: Bool
    /// Whether it was backed up at its last use.
    public var backupState: Bool
    /// A name the user chose, or one made from the device.
    public var name: String
    /// `ios` or `android` (or `web`), when the app said.
    public var platform: String?
    /// The OS version at registration, when the app said.
    public var osVersion: String?
    /// The device's name at registration, when the app said.
    public var deviceName: String?
    /// The registered device it was created on, when the app was signed in on one.
    public var deviceId: DeviceID?
    /// When it was registered.
    public var createdAt: Date
    /// When it last signed in.
    public var lastUsedAt: Date?
    /// When a sign-in with it last showed a sign of a cloned authenticator.
    public var suspectedCloneAt: Date? = nil
    /// Which sign (`CloneSignal`'s raw value).
    public var suspectedCloneReason: String? = nil
}
