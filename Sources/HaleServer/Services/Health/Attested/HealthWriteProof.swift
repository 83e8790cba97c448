import Foundation

/// What proved an attested write of health data: kept with the samples it brought, so a provenance statement can
/// later say which device and app they came from. Never the attestation token itself.
public struct HealthWriteProof: Sendable, Equatable, Codable {
    /// The proof.
    public let id: UUID
    /// The account that wrote.
    public let accountId: AccountID
    /// `ios` (App Attest) or `android` (Play Integrity).
    public let platform: String
    /// iOS: the id of the App Attest key that asserted; nil on Android, where Play Integrity names no key.
    public let keyId: String?
    /// iOS: the app id (`TEAMID.bundle`) the key was attested for; Android: the package name Play vouched for.
    public let appId: String
    /// Android: the `versionCode` Play reported; nil on iOS, where App Attest does not say.
    public let appVersion: String?
    /// iOS: the assertion's counter (0 when the write carried the attestation of a new key); nil on Android.
    public let counter: Int64?
    /// The one-time nonce the write was attested over.
    public let nonce: String
    /// base64url of SHA-256 of the write's exact body.
    public let bodySha256: String
    /// When the write was accepted.
    public let createdAt: Date

    /// A proof with these parts: what `HealthData.verifyWrite` makes of a verified attestation.
    public init(
        id: UUID = UUID(), accountId: AccountID, platform: String, keyId: String?, appId: String, appVersion: String?,
        counter: Int64?, nonce: String, bodySha256: String, createdAt: Date
    ) {
        self.id = id
        self.accountId = accountId
        self.platform = platform
        self.keyId = keyId
        self.appId = appId
        self.appVersion = appVersion
        self.counter = counter
        self.nonce = nonce
        self.bodySha256 = bodySha256
        self.createdAt = createdAt
    }
}

extension DeviceAttestation {
    /// What a verified attestation says about who made it.
    struct Evidence: Sendable, Equatable {
        let platform: Platform
        let keyId: String?
        let appId: String
        let appVersion: String?
        let counter: Int64?
    }
}
