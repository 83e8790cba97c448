import StrictJSON

extension JSONValue {
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
        case .integer(let value) where value >= 0: String(value)
        default: nil
        }
    }
}
