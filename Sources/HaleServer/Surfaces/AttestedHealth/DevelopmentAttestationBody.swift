import Crypto
import Foundation
import StrictJSON

/// `POST /health/development-attestation`: `{publicKey}`, base64 DER SubjectPublicKeyInfo of the SDK's P-256 key.
struct DevelopmentAttestationBody {
    let publicKey: P256.Signing.PublicKey

    /// A P-256 SubjectPublicKeyInfo is 91 bytes, 124 in base64: far more than that is never a key.
    static let maxLength = 1024

    static func read(_ body: JSONValue) throws -> DevelopmentAttestationBody {
        guard case .object(let members) = body else { throw HaleError.invalidRequest("The body must be a JSON object") }
        if let unknown = members.keys.sorted().first(where: { $0 != "publicKey" }) {
            throw HaleError.invalidRequest("property \(EchoedName.text(unknown)) should not exist")
        }
        guard case .string(let text)? = members["publicKey"], !text.isEmpty else {
            throw HaleError.invalidRequest("publicKey must be a non-empty string")
        }
        guard text.utf8.count <= maxLength else {
            throw HaleError.invalidRequest("publicKey must be at most \(maxLength) bytes")
        }
        guard let der = Data(base64Encoded: text) else {
            throw HaleError.invalidRequest("publicKey must be standard base64")
        }
        guard let key = try? P256.Signing.PublicKey(derRepresentation: der) else {
            throw HaleError.invalidRequest("publicKey must be the DER SubjectPublicKeyInfo of a P-256 key")
        }
        return DevelopmentAttestationBody(publicKey: key)
    }
}
