/// A mail that cannot be rendered safely. Values are left out of the description on purpose: they are what is wrong.
enum MailFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An address is not a plain `local@domain` of at most 254 printable ASCII characters.
    case invalidAddress(field: String)
    /// A header value contains CR, LF or another control character, which could inject headers.
    case forbiddenCharacterInHeader(field: String)
    /// The Message-ID is not a plain `left@right` without angle brackets.
    case invalidMessageID
    /// The MIME boundary is not 1–70 allowed characters, or occurs in an encoded body part.
    case invalidBoundary

    /// A one-line description naming the offending field.
    var description: String {
        switch self {
        case .invalidAddress(let field): "invalid \(field) address"
        case .forbiddenCharacterInHeader(let field): "\(field) contains a line break or control character"
        case .invalidMessageID: "invalid Message-ID"
        case .invalidBoundary: "invalid MIME boundary"
        }
    }
}
