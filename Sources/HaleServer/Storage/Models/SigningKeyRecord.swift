import Foundation

/// An access-token signing key as stored.
struct SigningKeyRecord: Codable, Sendable, Equatable {
    var kid: String
    var privateKeyPem: String
    var createdAt: Date
    /// When the key starts signing. Until then it is published, so verifiers learn it before they meet it.
    var activatesAt: Date
}
