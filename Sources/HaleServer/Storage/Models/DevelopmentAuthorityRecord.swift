import Foundation

/// The development App Attest CA as stored: its root key and self-signed root certificate, both PEM.
struct DevelopmentAuthorityRecord: Codable, Sendable, Equatable {
    /// The one row's key.
    static let installation = "installation"

    var id: String
    var privateKeyPem: String
    var certificatePem: String
    var createdAt: Date
}
