import Foundation

/// An access-token signing key as stored: its private key sealed (`SigningKeyRecord.purpose(of:)`), or, read by the
/// key ring, opened.
struct SigningKeyRecord: Codable, Sendable, Equatable {
    var kid: String
    var privateKeySealed: String
    var createdAt: Date
    /// When the key starts signing. Until then it is published, so verifiers learn it before they meet it.
    var activatesAt: Date
}

extension SigningKeyRecord {
    /// What a signing key's private key is sealed for: the key of this `kid` and no other row.
    static func purpose(of kid: String) -> String {
        "signing-key:\(kid)"
    }
}
