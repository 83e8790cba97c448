import Foundation

/// A key that signs provenance statements, as stored: its private key sealed under the key-encryption key.
struct ProvenanceKeyRecord: Codable, Sendable, Equatable {
    var kid: String
    var privateKeySealed: String
    var createdAt: Date

    /// What its private key is sealed for: the provenance key of this `kid`, never an access-token key.
    static func purpose(of kid: String) -> String {
        "provenance-key:\(kid)"
    }
}
