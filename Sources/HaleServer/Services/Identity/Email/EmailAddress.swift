import Foundation

/// An email address as Hale keeps it: trimmed and lowercased, at most 254 bytes, one `@` with a local part and a
/// domain that has a dot, and nothing a mail header or an SMTP command could be split with.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The normalized address.
    public let value: String

    /// The address normalized, or nil when it is not one Hale mails.
    public init?(_ raw: String) {
        guard raw.utf8.count <= 320 else { return nil }
        let address = raw.trimmingCharacters(in: .whitespaces).lowercased()
        guard (3...254).contains(address.utf8.count), Self.isPlain(address) else { return nil }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...64).contains(parts[0].utf8.count), Self.isDomain(parts[1]) else { return nil }
        value = address
    }

    /// The address `raw` normalizes to, for text a client sent; an `InvalidInput` for `email` when it is not one
    /// Hale mails, which never repeats the input.
    public static func parse(_ raw: String) throws(InvalidInput) -> EmailAddress {
        guard let address = EmailAddress(raw) else { throw invalid }
        return address
    }

    /// The normalized address.
    public var description: String { value }

    /// Printable ASCII without spaces, angle brackets, commas, quotes or backslashes: what SMTP without the
    /// SMTPUTF8 extension carries.
    private static func isPlain(_ address: String) -> Bool {
        address.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value < 0x7F && !"<>(),;:\"\\[]".unicodeScalars.contains(scalar)
        }
    }

    private static func isDomain(_ domain: Substring) -> Bool {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty && $0.utf8.count <= 63 && !$0.hasPrefix("-") }
    }

    /// The refusal of anything else.
    static let invalid = InvalidInput("email", .form("an email address of at most 254 characters"))
}
