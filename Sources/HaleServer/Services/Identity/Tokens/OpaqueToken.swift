import ByteEncoding
import Crypto
import Foundation

/// Random secrets handed to clients (refresh tokens, challenge values, access-token secrets) and their stored hashes.
///
/// Only `hash` is ever stored; the plaintext leaves the server once, in a response.
public enum OpaqueToken {
    /// A new secret of `byteCount` random bytes (256 bits by default), base64url-encoded without padding.
    public static func generate<R: RandomNumberGenerator>(byteCount: Int = 32, using generator: inout R) -> String {
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(bytes)
    }

    /// A new secret from the system's cryptographically secure generator.
    public static func generate(byteCount: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return generate(byteCount: byteCount, using: &generator)
    }

    /// `count` bytes from the system's cryptographically secure generator.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// What a client may present as a token that is only hashed and looked up (a refresh token, a handoff code, a
    /// challenge's `sessionId`): Hale's are 43 characters, so 256 bytes leave room and bound the hashing.
    public static let presentedRule = TextRule(1...256, .bytes, .noControl)

    /// `token` itself, or a 400 naming `field` and `presentedRule`, before it is hashed.
    @discardableResult
    public static func checkPresented(_ token: String, field: String) throws -> String {
        try presentedRule.check(token, field: field)
    }

    /// The lowercase hex SHA-256 of the token's UTF-8 bytes: the only form in which Hale stores a secret.
    public static func hash(_ token: String) -> String {
        Hex.encode(SHA256.hash(data: Data(token.utf8)))
    }
}
