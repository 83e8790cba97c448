import Crypto
import Foundation

/// Seals secrets Hale must be able to read back — a provider's refresh token it must later revoke — with AES-256-GCM
/// under a configured key. A sealed value is `v1.` and base64 of nonce, ciphertext and tag; `purpose` is bound as
/// additional data, so a value sealed for one use cannot be opened as another.
public struct SecretBox: Sendable {
    private let key: SymmetricKey

    /// A box with a 32-byte key given as standard base64; throws a `ConfigError` naming `setting` otherwise.
    public init(base64Key: String, setting: String) throws {
        guard let bytes = Data(base64Encoded: base64Key), bytes.count == 32 else {
            throw ConfigError(
                "\(setting) must be 32 random bytes in base64, such as the output of `openssl rand -base64 32`")
        }
        key = SymmetricKey(data: bytes)
    }

    /// Seals `secret` for `purpose`.
    public func seal(_ secret: String, purpose: String) throws -> String {
        let box = try AES.GCM.seal(Data(secret.utf8), using: key, authenticating: Data(purpose.utf8))
        guard let combined = box.combined else { throw ConfigError("AES-GCM produced no combined representation") }
        return "v1." + combined.base64EncodedString()
    }

    /// Opens a value sealed for `purpose`; `nil` if it was sealed with another key or purpose, or altered.
    public func open(_ sealed: String, purpose: String) -> String? {
        guard sealed.hasPrefix("v1."), let combined = Data(base64Encoded: String(sealed.dropFirst(3))),
            let box = try? AES.GCM.SealedBox(combined: combined),
            let plain = try? AES.GCM.open(box, using: key, authenticating: Data(purpose.utf8))
        else {
            return nil
        }
        return String(decoding: plain, as: UTF8.self)
    }
}
