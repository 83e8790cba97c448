import Crypto
import Foundation

/// A public key as the native iOS client exports it: a SubjectPublicKeyInfo in PEM, base64 wrapped at 64
/// characters, LF line endings, no line break after the footer.
public enum PublicKeyPEM {
    /// The PEM of a DER SubjectPublicKeyInfo.
    public static func encode(der: Data) -> String {
        let base64 = Array(der.base64EncodedString())
        let lines = stride(from: 0, to: base64.count, by: 64).map { String(base64[$0..<min($0 + 64, base64.count)]) }
        return (["-----BEGIN PUBLIC KEY-----"] + lines + ["-----END PUBLIC KEY-----"]).joined(separator: "\n")
    }

    /// The PEM of a P-256 public key in the X9.63 form `SecKeyCopyExternalRepresentation` gives (`04 || x || y`).
    public static func encode(p256X963 x963: Data) throws -> String {
        encode(der: try P256.Signing.PublicKey(x963Representation: x963).derRepresentation)
    }
}
