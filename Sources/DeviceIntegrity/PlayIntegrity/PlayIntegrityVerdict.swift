import Foundation

/// A verified Play Integrity verdict: the token's payload, as far as Hale uses it.
public struct PlayIntegrityVerdict: Sendable, Equatable {
    /// The configured app the token is for.
    public let app: PlayIntegrityApp
    /// `requestDetails.requestPackageName`.
    public let requestPackageName: String
    /// `requestDetails.nonce`, present for classic requests.
    public let nonce: String?
    /// `requestDetails.requestHash`, present for standard requests.
    public let requestHash: String?
    /// `requestDetails.timestampMillis`.
    public let timestamp: Date
    /// `appIntegrity.appRecognitionVerdict`.
    public let appRecognitionVerdict: String
    /// `appIntegrity.certificateSha256Digest`.
    public let certificateSha256Digests: [String]
    /// `appIntegrity.versionCode`.
    public let versionCode: String?
    /// `deviceIntegrity.deviceRecognitionVerdict`.
    public let deviceRecognitionVerdicts: [String]
    /// `accountDetails.appLicensingVerdict`.
    public let appLicensingVerdict: String?
}
