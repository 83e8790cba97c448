import HealthSamples
import StrictJSON

/// JSON written one way only, after RFC 8785 (the JSON Canonicalization Scheme): no whitespace, object members
/// sorted by their names' UTF-16 code units, numbers as ECMAScript writes them, and strings escaped only where JSON
/// requires it. A confirmation's payload is stored and signed as this text.
enum CanonicalJSON {
    /// The canonical text of `value`.
    static func text(of value: JSONValue) -> String {
        var output = ""
        write(value, to: &output)
        return output
    }

    private static func write(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .integer(let number): output += String(number)
        case .number(let number): output += JavaScriptNumber.string(number)
        case .string(let text): writeString(text, to: &output)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                write(item, to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            let names = members.keys.sorted { Array($0.utf16).lexicographicallyPrecedes(Array($1.utf16)) }
            for (index, name) in names.enumerated() {
                if index > 0 { output += "," }
                writeString(name, to: &output)
                output += ":"
                write(members[name] ?? .null, to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
