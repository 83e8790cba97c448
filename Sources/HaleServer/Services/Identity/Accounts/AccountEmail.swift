import Foundation

/// An account's email as `Accounts` keeps it: trimmed and lowercased, sent as at most 254 characters (RFC 5321's
/// longest path) with one `@`, a local part and a dotted domain, and no spaces or control characters. It names the
/// account; an address Hale mails is an `EmailAddress`, which asks more.
public struct AccountEmail: Sendable, Hashable, CustomStringConvertible {
    /// The normalized email.
    public let value: String

    /// The email `raw` normalizes to; an `InvalidInput` for `email` otherwise, which never repeats the input.
    public init(_ raw: String) throws(InvalidInput) {
        guard Accounts.emailRule.allows(raw) else { throw Self.invalid }
        let normalized = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = normalized.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix("."), !normalized.unicodeScalars.contains(where: \.properties.isWhitespace)
        else {
            throw Self.invalid
        }
        value = normalized
    }

    /// The normalized email.
    public var description: String { value }

    // The period is the wire's, which tests pin.
    static let invalid = InvalidInput(
        "email",
        .form(
            "an address of 1 to \(Accounts.emailRule.length.upperBound) characters (Unicode code points) with one @, a local part and a dotted domain, and no spaces or control characters."
        ))
}
