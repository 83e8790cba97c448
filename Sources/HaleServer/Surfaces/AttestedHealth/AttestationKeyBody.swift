import Foundation
import StrictJSON

/// `POST /health/attestation-keys`: `{keyId, attestation, nonce}`, the key id and attestation in standard base64 as
/// `DCAppAttestService` gives them.
struct AttestationKeyBody {
    let keyID: [UInt8]
    let attestation: [UInt8]
    let nonce: String

    /// App Attest attestations are about 5 KB of base64: the receipt and two certificates.
    static let maxAttestationLength = 32_768
    /// Nonces Hale issues are 43 characters; the same limit as `POST /health`'s.
    static let maxNonceLength = HealthSubmissionBody.maxNonceLength

    static func read(_ body: JSONValue) throws -> AttestationKeyBody {
        guard case .object(let members) = body else { throw HaleError.invalidRequest("The body must be a JSON object") }
        if let unknown = members.keys.sorted().first(where: { !["keyId", "attestation", "nonce"].contains($0) }) {
            throw HaleError.invalidRequest("property \(EchoedName.text(unknown)) should not exist")
        }
        guard case .string(let keyID)? = members["keyId"], let keyBytes = Data(base64Encoded: keyID),
            keyBytes.count == 32
        else {
            throw HaleError.invalidRequest("keyId must be the base64 key identifier App Attest returned")
        }
        guard case .string(let attestation)? = members["attestation"], attestation.utf8.count <= maxAttestationLength,
            let attestationBytes = Data(base64Encoded: attestation)
        else {
            throw HaleError.invalidRequest(
                "attestation must be the base64 attestation object, at most \(maxAttestationLength) bytes")
        }
        guard case .string(let nonce)? = members["nonce"], !nonce.isEmpty else {
            throw HaleError.invalidRequest("nonce should not be empty")
        }
        guard nonce.utf8.count <= maxNonceLength else {
            throw HaleError.invalidRequest("nonce must be at most \(maxNonceLength) bytes")
        }
        return AttestationKeyBody(keyID: [UInt8](keyBytes), attestation: [UInt8](attestationBytes), nonce: nonce)
    }
}
