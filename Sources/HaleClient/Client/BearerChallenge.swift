import Foundation

/// The parameters of a `WWW-Authenticate: Bearer …` challenge (RFC 6750 §3), such as `error` and RFC 9470's
/// `max_age`, each a token or a quoted string.
struct BearerChallenge: Sendable, Equatable {
    /// The parameters by lowercased name.
    let parameters: [String: String]

    /// Reads the header's Bearer challenge; nil when it is not one.
    init?(_ header: String) {
        var rest = Substring(header).drop { $0 == " " }
        guard rest.prefix(6).lowercased() == "bearer", rest.dropFirst(6).first.map({ $0 == " " }) ?? true else {
            return nil
        }
        rest = rest.dropFirst(6)
        var parameters: [String: String] = [:]
        while let (name, value) = Self.parameter(&rest) {
            parameters[name.lowercased()] = value
        }
        self.parameters = parameters
    }

    /// The `error` code, such as `invalid_token` or `insufficient_user_authentication`.
    var error: String? { parameters["error"] }

    /// How recent a sign-in must be (RFC 9470 `max_age`, in seconds).
    var maxAge: Duration? {
        parameters["max_age"].flatMap { Int($0) }.flatMap { $0 >= 0 ? .seconds($0) : nil }
    }

    /// Reads `name=value` after optional spaces and a comma; nil at the end or at anything else.
    private static func parameter(_ text: inout Substring) -> (String, String)? {
        text = text.drop { $0 == " " || $0 == "," }
        let name = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        guard !name.isEmpty else { return nil }
        text = text.dropFirst(name.count).drop { $0 == " " }
        guard text.first == "=" else { return nil }
        text = text.dropFirst().drop { $0 == " " }
        guard text.first == "\"" else {
            let value = text.prefix { $0 != "," && $0 != " " }
            text = text.dropFirst(value.count)
            return (String(name), String(value))
        }
        text = text.dropFirst()
        var value = ""
        while let character = text.popFirst() {
            switch character {
            case "\"": return (String(name), value)
            case "\\": if let escaped = text.popFirst() { value.append(escaped) }
            default: value.append(character)
            }
        }
        return nil
    }
}
