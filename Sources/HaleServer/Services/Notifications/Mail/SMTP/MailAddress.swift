/// Minimal checks on envelope and header addresses; full RFC 5321 syntax is left to the server.
enum MailAddress {
    /// The longest address accepted, in bytes (RFC 5321 path limit less the angle brackets).
    static let maximumLength = 254

    /// Characters that would change the meaning of a header or an SMTP command if they appeared in an address.
    private static let forbiddenCharacters: Set<Unicode.Scalar> = ["<", ">", "(", ")", ",", ";", "\"", "\\"]

    /// Whether `address` is a single `local@domain` of printable ASCII, without spaces, controls or brackets.
    ///
    /// Non-ASCII is refused because this client does not negotiate SMTPUTF8.
    static func isValid(_ address: String) -> Bool {
        guard (3...maximumLength).contains(address.utf8.count) else { return false }
        guard address.unicodeScalars.allSatisfy(isAllowed) else { return false }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
    }

    /// Throws `MailFormatError.invalidAddress` naming `field` unless `address` is valid.
    static func validate(_ address: String, field: String) throws(MailFormatError) {
        guard isValid(address) else { throw .invalidAddress(field: field) }
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        (0x21...0x7E).contains(scalar.value) && !forbiddenCharacters.contains(scalar)
    }
}
