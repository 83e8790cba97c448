import Foundation

/// What a device-registration challenge remembers until the device signs it.
struct PendingDeviceRegistration: Codable, Sendable {
    let challenge: String
    let deviceId: DeviceID
    let name: String
    let deviceType: String
    let fingerprintHash: String
    /// The DER SubjectPublicKeyInfo, base64.
    let publicKey: String
    let declaredAlgorithm: String
}

/// What a device sign-in challenge remembers until the device signs it.
struct PendingDeviceSignIn: Codable, Sendable {
    let challenge: String
    let fingerprintHash: String
}

/// A challenge as handed to an app: the text to sign, and the handle to send back with the signature.
public struct DeviceChallenge: Sendable {
    /// The text the device signs, as UTF-8.
    public let challenge: String
    /// The handle that names the ceremony when the signature comes back.
    public let sessionId: String
    /// The device being registered; `nil` for a sign-in.
    public let deviceId: DeviceID?
    /// When the challenge expires.
    public let expiresAt: Date
}
