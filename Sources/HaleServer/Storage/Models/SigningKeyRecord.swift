import Foundation

/// An access-token signing key as stored.
struct SigningKeyRecord: Codable, Sendable, Equatable {
    var kid: String
    var privateKeyPem: String
    var createdAt: Date
    var retiredAt: Date?
}
