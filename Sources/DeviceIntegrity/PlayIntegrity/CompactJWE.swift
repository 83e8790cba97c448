import ByteEncoding
import Crypto
import Foundation

/// A compact JWE (RFC 7516 §7.1) with key wrapping A256KW (RFC 7518 §4.4) and content encryption A256GCM
/// (§5.3): the only combination Play Integrity uses, and the only one accepted.
struct CompactJWE {
    static let header = ["alg": "A256KW", "enc": "A256GCM"]

    let protectedHeader: Substring
    let encryptedKey: [UInt8]
    let iv: [UInt8]
    let ciphertext: [UInt8]
    let tag: [UInt8]

    init(_ token: String) throws(PlayIntegrityError) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5, let headerBytes = Base64URL.canonicalBytes(parts[0]),
            let header = try? JSONDecoder().decode([String: String].self, from: Data(headerBytes))
        else {
            throw .malformed
        }
        guard header == Self.header else { throw .wrongAlgorithm }
        guard let encryptedKey = Base64URL.canonicalBytes(parts[1]), let iv = Base64URL.canonicalBytes(parts[2]),
            let ciphertext = Base64URL.canonicalBytes(parts[3]), let tag = Base64URL.canonicalBytes(parts[4]),
            encryptedKey.count == 40, iv.count == 12, tag.count == 16
        else {
            throw .malformed
        }
        (protectedHeader, self.encryptedKey, self.iv, self.ciphertext, self.tag) =
            (parts[0], encryptedKey, iv, ciphertext, tag)
    }

    /// RFC 7516 §5.2: unwrap the content key with `key`, then open the ciphertext with the protected header, as
    /// it appears in the token, for additional authenticated data.
    func decrypt(with key: SymmetricKey) throws(PlayIntegrityError) -> [UInt8] {
        guard let contentKey = try? AES.KeyWrap.unwrap(encryptedKey, using: key),
            let nonce = try? AES.GCM.Nonce(data: iv),
            let box = try? AES.GCM.SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag),
            let plaintext = try? AES.GCM.open(box, using: contentKey, authenticating: Array(protectedHeader.utf8))
        else {
            throw .decryptionFailed
        }
        return Array(plaintext)
    }
}
