import Foundation

/// The bound on a text a client sends, checked where it enters: how long it may be and which characters it may hold.
///
/// A length in `.characters` counts Unicode scalars (code points), as JSON Schema's `maxLength` does, so the OpenAPI
/// document states the same limit; one character is at most 4 bytes. A length in `.bytes` counts UTF-8 bytes. Grapheme
/// clusters (Swift's `String.count`) are never counted: five of them can be megabytes.
public struct TextRule: Sendable, Equatable {
    /// What a length counts.
    public enum Unit: Sendable, Equatable {
        /// Unicode scalars.
        case characters
        /// UTF-8 bytes.
        case bytes
    }

    /// Which characters a text may hold. Control characters are C0 (U+0000–U+001F) and DEL (U+007F).
    public enum Characters: Sendable, Equatable {
        /// No control characters, and something besides white space: a name a person types.
        case name
        /// No control characters: a name a platform reports, such as a device model.
        case noControl
        /// Printable ASCII, U+0020 to U+007E.
        case printableASCII
        /// What FCM registration tokens are made of: ASCII letters, digits, `:`, `_` and `-`.
        case pushToken
    }

    /// Why a text breaks its rule.
    public enum Violation: Sendable, Equatable {
        /// Too short or too long.
        case length
        /// A character the rule does not allow, or only white space where a name is due.
        case characters
    }

    /// The lengths allowed, in `unit`.
    public let length: ClosedRange<Int>
    /// What `length` counts.
    public let unit: Unit
    /// The characters allowed.
    public let characters: Characters

    /// A rule.
    public init(_ length: ClosedRange<Int>, _ unit: Unit, _ characters: Characters) {
        self.length = length
        self.unit = unit
        self.characters = characters
    }

    /// A name people give: a device, a passkey, an account's display name, a fitness challenge.
    public static let name = TextRule(1...100, .characters, .name)
    /// A push token: FCM registration tokens are about 160 to 300 characters; 512 leaves room for their growth and
    /// stays far below PostgreSQL's 2,704-byte limit on an index entry (`push_registrations.token` is a primary key).
    public static let pushToken = TextRule(1...512, .characters, .pushToken)

    /// Whether `text` keeps the rule.
    public func allows(_ text: String) -> Bool {
        violation(of: text) == nil
    }

    /// What `text` breaks, if anything.
    public func violation(of text: String) -> Violation? {
        // The byte count is known without reading the text; a text over 4 bytes a character is too long unread.
        let bytes = text.utf8.count
        guard bytes <= length.upperBound * (unit == .characters ? 4 : 1) else { return .length }
        guard length.contains(unit == .bytes ? bytes : text.unicodeScalars.count) else { return .length }
        return Self.allows(text.unicodeScalars, characters) ? nil : .characters
    }

    /// `text` itself, or an `InvalidInput` naming `field` and this rule.
    @discardableResult
    public func check(_ text: String, field: String) throws(InvalidInput) -> String {
        guard allows(text) else { throw InvalidInput(field, .text(self)) }
        return text
    }

    /// `text` checked as sent, then without the white space around it, as names are stored: a 400 as `check` says
    /// when the text breaks the rule or is nothing but white space.
    public func checkTrimmed(_ text: String, field: String) throws(InvalidInput) -> String {
        let trimmed = try check(text, field: field).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty || length.lowerBound == 0 else { throw InvalidInput(field, .text(self)) }
        return trimmed
    }

    /// "`field` must be …": the whole rule, for a 400.
    public func message(field: String) -> String {
        "\(field) must be \(requirement)."
    }

    /// The rule in words, such as "1 to 100 characters (Unicode code points), not only spaces, and no control
    /// characters".
    public var requirement: String {
        let range =
            length.lowerBound == 0 ? "at most \(length.upperBound)" : "\(length.lowerBound) to \(length.upperBound)"
        switch (characters, unit) {
        case (.printableASCII, _): return "\(range) printable ASCII characters"
        case (.pushToken, _): return "\(range) characters of A-Z, a-z, 0-9, ':', '_' and '-'"
        case (.name, .characters):
            return "\(range) characters (Unicode code points), not only spaces, and no control characters"
        case (.name, .bytes): return "\(range) bytes, not only spaces, and no control characters"
        case (.noControl, .characters): return "\(range) characters (Unicode code points) with no control characters"
        case (.noControl, .bytes): return "\(range) bytes with no control characters"
        }
    }

    /// The ECMAScript pattern the OpenAPI document states for these characters.
    public var pattern: String {
        switch characters {
        case .name: #"^[^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f][^\x00-\x1f\x7f]*$"#
        case .noControl: #"^[^\x00-\x1f\x7f]*$"#
        case .printableASCII: #"^[\x20-\x7e]*$"#
        case .pushToken: "^[A-Za-z0-9:_-]*$"
        }
    }

    private static func allows(_ scalars: String.UnicodeScalarView, _ characters: Characters) -> Bool {
        switch characters {
        case .name: !scalars.contains(where: isControl) && scalars.contains { !ecmaScriptSpaces.contains($0) }
        case .noControl: !scalars.contains(where: isControl)
        case .printableASCII: scalars.allSatisfy { (0x20...0x7E).contains($0.value) }
        case .pushToken: scalars.allSatisfy { $0.isASCII && pushTokenBytes.contains(UInt8($0.value)) }
        }
    }

    /// C0 and DEL: what a JSON Schema pattern `[\x00-\x1f\x7f]` matches.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }

    /// ECMAScript's `\s`, which OpenAPI's patterns use; slightly different from Unicode's White_Space.
    private static let ecmaScriptSpaces: Set<Unicode.Scalar> = Set(
        [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF]
            .compactMap(Unicode.Scalar.init) + (0x2000...0x200A).compactMap(Unicode.Scalar.init))

    private static let pushTokenBytes = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:_-".utf8)
}
