/// Why a text was not read as JSON: a stable `code`, a `message` safe to show a client, and the byte offset where
/// reading stopped.
///
/// Two errors are equal when their reasons are: the offset is for people, not for callers that match on errors.
public struct JSONParseError: Error, Sendable, CustomStringConvertible {
    private enum Reason: Sendable {
        case syntax, tooDeep, tooManyElements, duplicateName, nulCharacter, numberOutOfRange, invalidText
    }

    private let reason: Reason
    /// Where in the bytes reading stopped.
    public let offset: Int

    private init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// Not JSON: an unexpected byte, a missing one, or bytes after the value.
    public static let syntax = Self(.syntax, at: 0)
    /// Arrays and objects nested deeper than the parser allows.
    public static let tooDeep = Self(.tooDeep, at: 0)
    /// More array items and object members in all than the parser allows.
    public static let tooManyElements = Self(.tooManyElements, at: 0)
    /// An object names a member twice.
    public static let duplicateName = Self(.duplicateName, at: 0)
    /// A string holds U+0000, which no field has a use for and PostgreSQL cannot store in text.
    public static let nulCharacter = Self(.nulCharacter, at: 0)
    /// A number too large for a 64-bit floating-point value.
    public static let numberOutOfRange = Self(.numberOutOfRange, at: 0)
    /// A string that is not valid UTF-8, or an escaped surrogate without its pair.
    public static let invalidText = Self(.invalidText, at: 0)

    /// The same reason at `offset`.
    func at(_ offset: Int) -> Self {
        Self(reason, at: offset)
    }

    /// The stable code, such as `JSON_TOO_DEEP`.
    public var code: String {
        switch reason {
        case .syntax: "JSON_SYNTAX"
        case .tooDeep: "JSON_TOO_DEEP"
        case .tooManyElements: "JSON_TOO_MANY_ELEMENTS"
        case .duplicateName: "JSON_DUPLICATE_NAME"
        case .nulCharacter: "JSON_NUL_CHARACTER"
        case .numberOutOfRange: "JSON_NUMBER_OUT_OF_RANGE"
        case .invalidText: "JSON_INVALID_TEXT"
        }
    }

    /// What is wrong, without quoting the input.
    public var message: String {
        switch reason {
        case .syntax: "The body is not valid JSON."
        case .tooDeep: "Arrays and objects may be nested at most \(JSONParser.defaultMaximumDepth) deep."
        case .tooManyElements:
            "Arrays and objects may hold at most \(JSONParser.defaultMaximumElements) items and members in all."
        case .duplicateName: "An object names the same member twice."
        case .nulCharacter: "Strings must not contain the NUL character (U+0000)."
        case .numberOutOfRange: "A number is too large."
        case .invalidText: "A string is not valid UTF-8 text."
        }
    }

    /// The code, the message and the offset.
    public var description: String { "\(code) at byte \(offset): \(message)" }
}

extension JSONParseError: Equatable {
    /// Whether both are for the same reason, wherever it was found.
    public static func == (lhs: JSONParseError, rhs: JSONParseError) -> Bool {
        lhs.reason == rhs.reason
    }
}
