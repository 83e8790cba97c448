/// An error thrown while decoding CBOR, with a stable ``code`` and the byte ``offset`` where it was found.
///
/// The offset counts from the first byte of the input passed to the decoder. For most codes it is the
/// start of the data item being decoded; for ``Code/trailingBytes`` it is the first unused byte and for
/// ``Code/duplicateMapKey`` the start of the repeated key.
public struct CBORError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable identifier for a kind of CBOR error. New codes may be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable {
            case truncated, trailingBytes, indefiniteLength, reservedAdditionalInfo, invalidUTF8
            case depthLimitExceeded, lengthLimitExceeded, duplicateMapKey, unexpectedBreak
            case unsupportedSimpleValue, inputTooLarge
        }

        fileprivate let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The input ended before the data item was complete.
        public static let truncated = Code(.truncated)
        /// `decode` found bytes after the single top-level data item.
        public static let trailingBytes = Code(.trailingBytes)
        /// An indefinite-length string, array or map; WebAuthn requires definite lengths.
        public static let indefiniteLength = Code(.indefiniteLength)
        /// Additional information 28–30, or 31 on a major type without an indefinite-length form.
        public static let reservedAdditionalInfo = Code(.reservedAdditionalInfo)
        /// A text string that is not valid UTF-8.
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// Arrays, maps and tags nested deeper than the decoder's `maximumDepth`.
        public static let depthLimitExceeded = Code(.depthLimitExceeded)
        /// A string length or element count above the decoder's `maximumLength`.
        public static let lengthLimitExceeded = Code(.lengthLimitExceeded)
        /// A map key that already occurred in the same map.
        public static let duplicateMapKey = Code(.duplicateMapKey)
        /// A break stop code (`0xff`) outside an indefinite-length item.
        public static let unexpectedBreak = Code(.unexpectedBreak)
        /// A simple value other than false, true, null and undefined, or a malformed two-byte simple value.
        public static let unsupportedSimpleValue = Code(.unsupportedSimpleValue)
        /// The whole input is larger than the decoder's `maximumInputSize`.
        public static let inputTooLarge = Code(.inputTooLarge)

        /// The code's name, for example `truncated`.
        public var description: String {
            base.rawValue
        }
    }

    /// What went wrong.
    public let code: Code
    /// The byte offset in the input where the problem was found.
    public let offset: Int

    /// Creates an error.
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - offset: The byte offset in the input where the problem was found.
    public init(_ code: Code, offset: Int) {
        self.code = code
        self.offset = offset
    }

    /// A readable summary such as `CBOR truncated at byte 3: input ended inside a data item`.
    public var description: String {
        "CBOR \(code) at byte \(offset): \(code.base.explanation)"
    }
}

extension CBORError.Code.Base {
    fileprivate var explanation: String {
        switch self {
        case .truncated: "input ended inside a data item"
        case .trailingBytes: "unexpected bytes after the data item"
        case .indefiniteLength: "indefinite-length items are not allowed"
        case .reservedAdditionalInfo: "reserved or invalid additional information in the initial byte"
        case .invalidUTF8: "text string is not valid UTF-8"
        case .depthLimitExceeded: "nesting is deeper than the decoder allows"
        case .lengthLimitExceeded: "length or count is larger than the decoder allows"
        case .duplicateMapKey: "map key occurs more than once"
        case .unexpectedBreak: "break stop code outside an indefinite-length item"
        case .unsupportedSimpleValue: "simple value is not false, true, null or undefined"
        case .inputTooLarge: "input is larger than the decoder allows"
        }
    }
}
