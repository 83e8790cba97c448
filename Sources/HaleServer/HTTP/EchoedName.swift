/// A name a client sent (an unknown field, a query parameter), as an error message repeats it: at most
/// `maximumBytes` of it, then `…`, with quotes, backslashes and control characters escaped as JSON escapes them,
/// so a message stays short and a log or terminal shows it as text.
enum EchoedName {
    /// The longest part of a name repeated, in UTF-8 bytes after escaping.
    static let maximumBytes = 64

    static func text(_ name: String) -> String {
        var text = ""
        var bytes = 0
        for scalar in name.unicodeScalars {
            let piece = escaped(scalar)
            guard bytes + piece.utf8.count <= maximumBytes else { return text + "…" }
            text += piece
            bytes += piece.utf8.count
        }
        return text
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case _ where isControl(scalar):
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        default: return String(scalar)
        }
    }

    /// C0, DEL, C1, and the line and paragraph separators, which some viewers break lines at.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
