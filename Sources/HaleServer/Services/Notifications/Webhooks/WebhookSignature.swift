import Crypto
import Foundation

/// Signing as the Standard Webhooks specification says: the secret is `whsec_` and base64 of 32 random bytes; the
/// signature `v1,` and base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}` under the secret's bytes;
/// with two live secrets (after a rotation), both signatures, space-separated, so a receiver that holds either
/// verifies.
public enum WebhookSignature {
    /// The prefix of every secret.
    static let secretPrefix = "whsec_"

    /// A new secret.
    public static func newSecret() -> String {
        secretPrefix + Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64EncodedString()
    }

    /// The key bytes of a `whsec_` secret; nil when it is not one.
    static func key(of secret: String) -> SymmetricKey? {
        guard secret.hasPrefix(secretPrefix),
            let bytes = Data(base64Encoded: String(secret.dropFirst(secretPrefix.count))), bytes.count >= 24
        else { return nil }
        return SymmetricKey(data: bytes)
    }

    /// The `webhook-signature` header for `body` sent as message `id` at `timestamp`, one `v1,` signature per
    /// secret, in the order given.
    public static func header(id: String, timestamp: Int, body: String, secrets: [String]) -> String {
        let content = Data("\(id).\(timestamp).\(body)".utf8)
        return secrets.compactMap(key(of:)).map { key in
            "v1," + Data(HMAC<SHA256>.authenticationCode(for: content, using: key)).base64EncodedString()
        }.joined(separator: " ")
    }
}
