import ByteEncoding
import Crypto
import Foundation

/// A compact JWS (RFC 7515 §7.1) signed with ES256 (RFC 7518 §3.4: raw r ‖ s), the only algorithm accepted.
struct CompactJWS {
    let signingInput: [UInt8]
    let payload: [UInt8]
    let signature: [UInt8]

    init(_ bytes: [UInt8]) throws(PlayIntegrityError) {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .malformed }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.canonicalBytes(parts[0]),
            let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
            let payload = Base64URL.canonicalBytes(parts[1]), let signature = Base64URL.canonicalBytes(parts[2])
        else {
            throw .malformed
        }
        guard header["alg"] as? String == "ES256", header["crit"] == nil else { throw .wrongAlgorithm }
        signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        self.payload = payload
        self.signature = signature
    }

    /// The payload, once the signature verifies with `key`.
    func verifiedPayload(with key: P256.Signing.PublicKey) throws(PlayIntegrityError) -> [UInt8] {
        guard signature.count == 64, let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(parsed, for: signingInput)
        else {
            throw .badSignature
        }
        return payload
    }
}
