import ByteEncoding
import Crypto
import Foundation

/// How the audit trail names an account: HMAC-SHA256 of the account's id under a 256-bit key of that account alone,
/// kept in `audit_account_keys` and deleted with the account. While the key exists, the account's events are found
/// by recomputing its pseudonym; once it is gone, nothing links the events to the person, and the chain, which
/// hashes the pseudonym, still verifies.
enum AuditPseudonym {
    /// The pseudonym of `account` under `key`, as lowercase hex.
    static func of(_ account: AccountID, key: SymmetricKey) -> String {
        Hex.encode(HMAC<SHA256>.authenticationCode(for: Data(account.description.utf8), using: key))
    }

    /// A new random key, as stored: lowercase hex of 32 bytes.
    static func newKey() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Hex.encode(Data($0)) }
    }

    /// A stored key; nil when the text is not 64 hex digits.
    static func key(_ stored: String) -> SymmetricKey? {
        guard stored.utf8.count == 64, let bytes = Hex.decode(stored) else { return nil }
        return SymmetricKey(data: bytes)
    }

    /// An account's stored key is not 64 hex digits.
    struct UnreadableKey: Error, CustomStringConvertible {
        var description: String { "an account's audit key in audit_account_keys is not 64 hex digits" }
    }
}
