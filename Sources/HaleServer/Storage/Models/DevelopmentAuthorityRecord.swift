import Foundation

/// The development App Attest CA as stored: its root key, sealed, and its self-signed root certificate, PEM.
struct DevelopmentAuthorityRecord: Codable, Sendable, Equatable {
    /// The one row's key.
    static let installation = "installation"
    /// What the root key is sealed for.
    static let purpose = "development-attestation-authority"

    var id: String
    var privateKeySealed: String
    var certificatePem: String
    var createdAt: Date
}
