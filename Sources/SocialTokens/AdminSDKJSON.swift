import StrictJSON

/// JSON text as Firebase's Admin SDK for Python writes it, with `json.dumps` and its defaults: `", "` between
/// members and items, `": "` after names, members in the order given, and every character outside printable ASCII
/// escaped as `\uXXXX` (lowercase hex, UTF-16, so a character beyond U+FFFF is a surrogate pair).
indirect enum AdminSDKJSON: Sendable {
    /// An object whose members are written in this order.
    case object([(String, AdminSDKJSON)])
    /// Any JSON value; the members of its objects are written sorted by name.
    case value(JSONValue)

    /// A string.
    static func string(_ text: String) -> AdminSDKJSON {
        .value(.string(text))
    }

    /// The JSON text.
    var text: String {
        switch self {
        case .object(let members): Self.object(members.map { ($0.0, $0.1.text) })
        case .value(let value): Self.text(of: value)
        }
    }

    private static func text(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let number): String(number)
        // Shortest round-trip digits, as Python's float repr: 0.5, 1e-05, 1e+20.
        case .number(let number): number.description
        case .string(let string): quoted(string)
        case .array(let items): "[" + items.map(text(of:)).joined(separator: ", ") + "]"
        case .object(let members): object(members.sorted { $0.key < $1.key }.map { ($0.key, text(of: $0.value)) })
        }
    }

    private static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { quoted($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }

    /// `json.dumps`'s `ensure_ascii` escaping: `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, and `\uXXXX` for everything
    /// else outside U+0020–U+007E.
    static func quoted(_ string: String) -> String {
        var output = "\""
        for unit in string.utf16 {
            switch unit {
            case 0x22: output += "\\\""
            case 0x5C: output += "\\\\"
            case 0x0A: output += "\\n"
            case 0x0D: output += "\\r"
            case 0x09: output += "\\t"
            case 0x08: output += "\\b"
            case 0x0C: output += "\\f"
            case 0x20...0x7E: output.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return output + "\""
    }
}
