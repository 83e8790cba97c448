import Foundation

/// One app installation on one phone: the unit that is listed, renamed, deactivated and deleted.
public struct Device: Codable, Sendable, Equatable {
    /// Hale's identifier for the device.
    public var id: DeviceID
    /// The account it belongs to.
    public var accountId: AccountID
    /// The name the app sent, or one the user chose.
    public var name: String
    /// What the app said it is, such as `mobile`.
    public var deviceType: String
    /// SHA-256 of the fingerprint the app sends to sign in; the fingerprint itself is not kept.
    public var fingerprintHash: String
    /// The Firebase Cloud Messaging registration token, when the app sent one.
    public var fcmToken: String?
    /// The APNs device token, when the app sent one.
    public var apnsToken: String?
    /// When a push token was last set.
    public var pushTokenUpdatedAt: Date?
    /// When it was registered.
    public var createdAt: Date
    /// When it last signed in.
    public var lastUsedAt: Date?
    /// The network (IPv4 /24, IPv6 /48) it last signed in from; a change is a security event.
    public var lastIpRange: String?
    /// When it was deactivated, if it was; a deactivated device cannot sign in again.
    public var deactivatedAt: Date?
    /// SHA-256 of the installation id the app sent when it signed in (`X-Installation-Id`); nil when it sent none.
    public var installationHash: String? = nil
}

/// A hardware-backed key registered to a device.
public struct DeviceKeyRecord: Codable, Sendable, Equatable {
    /// Hale's identifier for the key.
    public var id: UUID
    /// The device holding it.
    public var deviceId: DeviceID
    /// The account it signs in to.
    public var accountId: AccountID
    /// The DER SubjectPublicKeyInfo, base64.
    public var publicKey: String
    /// base64url SHA-256 of the DER; a key is registered once.
    public var thumbprint: String
    /// The key's real type, read from the key: `ec-p256` or `rsa-<bits>`.
    public var keyType: String
    /// The `keyAlgorithm` the app declared, which may not match `keyType`.
    public var declaredAlgorithm: String
    /// How the registration signature was made: the client flavour.
    public var signatureConvention: String
    /// When it was registered.
    public var createdAt: Date
    /// When it last signed in.
    public var lastUsedAt: Date?
    /// When it was revoked, if it was.
    public var revokedAt: Date?
}
