/// A JSON value, decoded without guessing: booleans stay booleans and numbers stay numbers, so that a claim's type
/// can be checked exactly.
enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
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

    /// The string, if this is one.
    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The number, if this is one.
    var number: Double? {
        if case .number(let value) = self { value } else { nil }
    }

    /// The members, if this is an object.
    var object: [String: JSONValue]? {
        if case .object(let value) = self { value } else { nil }
    }

    /// A boolean, or the strings `"true"` and `"false"` that Apple sometimes sends instead.
    var flag: Bool? {
        switch self {
        case .bool(let value): value
        case .string("true"): true
        case .string("false"): false
        default: nil
        }
    }

    /// An identifier that the Graph API sends as a string, or in older answers as an integer.
    var identifier: String? {
        switch self {
        case .string(let value): value
        case .number(let value) where value >= 0 && value < 9e15 && value.rounded() == value: String(Int64(value))
        default: nil
        }
    }
}
