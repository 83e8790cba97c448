import Foundation

/// An attested App Attest key of an account's iOS app.
struct AppAttestKey: Codable, Sendable, Equatable {
    var id: UUID
    var accountId: AccountID
    /// The device of the session that registered it, when known.
    var deviceId: DeviceID?
    /// Standard base64 of the key id: SHA-256 of the public key, as `DCAppAttestService` reports it.
    var keyId: String
    /// Standard base64 of the public key's X9.63 representation.
    var publicKey: String
    /// `TEAMID.bundle.id`.
    var appId: String
    /// `development` or `production`.
    var environment: String
    /// The highest assertion counter accepted so far.
    var counter: Int64
    /// Standard base64 of Apple's receipt, for fraud-metric requests.
    var receipt: String
    /// Whether the development CA certified it; such a key is refused once the mode is off.
    var fromDevelopmentAuthority: Bool
    var createdAt: Date
    var lastUsedAt: Date?
}
