/// Any JSON value, keeping booleans, whole numbers, other numbers and strings apart, for bodies and tokens whose
/// shape varies between clients and must be checked member by member.
///
/// Read it with `JSONValue(parsing:)`, which costs one pass over the bytes whatever their nesting. Its `Decodable`
/// conformance, for a member of a larger `Codable` body, tries each kind in turn: keep such bodies small.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number with an integral value that fits in 64 bits, whether written `12`, `12.0` or `1.2e1`.
    case integer(Int64)
    /// Any other finite number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; its member names are unique.
    case object([String: JSONValue])

    /// The string, if this is one.
    public var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The number, if this is one, whole or not.
    public var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    /// The members, if this is an object.
    public var object: [String: JSONValue]? {
        if case .object(let value) = self { value } else { nil }
    }

    /// The name of the value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue: Decodable {
    /// Decodes any JSON value from a `Decoder`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}

extension JSONValue: Encodable {
    /// Encodes the value as it is.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
