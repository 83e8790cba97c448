import Crypto
import Foundation

/// Seals the secrets Hale keeps in its database (access-token signing keys, the development attestation
/// authority's key, Apple refresh tokens) under a key-encryption key that never enters the database, so that a
/// dump or a backup alone yields none of them.
///
/// A sealed value is `kek1:<key id>:<base64 of nonce ‖ ciphertext ‖ tag>`: AES-256-GCM, authenticating its purpose
/// (which names the row it belongs to), so a value moved to another row does not open. The key id is the first
/// eight bytes of the key's SHA-256, in hex: values sealed under a previous key open while it is configured as one,
/// and `needsRewrap` tells which to seal again under the current key (`hale keys rewrap`).
public struct SecretSealer: Sendable {
    /// A key-encryption key and its id.
    public struct Key: Sendable {
        /// The first eight bytes of the key's SHA-256, in hex.
        public let id: String
        let key: SymmetricKey

        /// A key from 32 random bytes in standard base64; a `ConfigError` naming `setting` otherwise.
        public init(base64: String, setting: String) throws {
            let text = base64.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let bytes = Data(base64Encoded: text), bytes.count == 32 else {
                throw ConfigError(
                    "\(setting) must be 32 random bytes in base64, such as the output of `openssl rand -base64 32`")
            }
            key = SymmetricKey(data: bytes)
            id = SampleFingerprint.lowercaseHex(SHA256.hash(data: bytes).prefix(8))
        }
    }

    /// The key new values are sealed under.
    public let current: Key
    private let previous: [Key]

    /// A sealer that seals under `current` and opens under it or any of `previous`.
    public init(current: Key, previous: [Key] = []) {
        self.current = current
        self.previous = previous
    }

    private static let prefix = "kek1:"

    /// Seals `secret` for `purpose`.
    public func seal(_ secret: some DataProtocol, purpose: String) throws -> String {
        let box = try AES.GCM.seal(
            Data(secret), using: current.key, authenticating: Data(Self.authenticated(purpose, current.id).utf8))
        guard let combined = box.combined else { throw ConfigError("AES-GCM produced no combined representation") }
        return "\(Self.prefix)\(current.id):\(combined.base64EncodedString())"
    }

    /// Seals the UTF-8 of `secret` for `purpose`.
    public func seal(_ secret: String, purpose: String) throws -> String {
        try seal(Data(secret.utf8), purpose: purpose)
    }

    /// Opens a value sealed for `purpose`; nil when it is not sealed, was sealed for another purpose or under a key
    /// this sealer does not hold, or was altered.
    public func open(_ sealed: String, purpose: String) -> Data? {
        guard let (id, combined) = Self.parts(of: sealed),
            let key = ([current] + previous).first(where: { $0.id == id }),
            let box = try? AES.GCM.SealedBox(combined: combined)
        else {
            return nil
        }
        return try? AES.GCM.open(box, using: key.key, authenticating: Data(Self.authenticated(purpose, id).utf8))
    }

    /// `open` as UTF-8 text.
    public func openText(_ sealed: String, purpose: String) -> String? {
        open(sealed, purpose: purpose).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether `value` is sealed in this format at all (under any key).
    public static func isSealed(_ value: String) -> Bool {
        parts(of: value) != nil
    }

    /// Whether `value` is sealed under another key than the current one, or not sealed at all.
    public func needsRewrap(_ value: String) -> Bool {
        Self.parts(of: value)?.id != current.id
    }

    private static func parts(of sealed: String) -> (id: String, combined: Data)? {
        guard sealed.hasPrefix(prefix) else { return nil }
        let rest = sealed.dropFirst(prefix.count).split(separator: ":", maxSplits: 1)
        guard rest.count == 2, rest[0].count == 16, let combined = Data(base64Encoded: String(rest[1])) else {
            return nil
        }
        return (String(rest[0]), combined)
    }

    private static func authenticated(_ purpose: String, _ id: String) -> String {
        "hale-secret:\(purpose):\(id)"
    }
}
