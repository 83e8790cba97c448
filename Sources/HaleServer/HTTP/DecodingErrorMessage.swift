/// Client-facing messages for JSON decoding failures: they name the field and what was wrong, and nothing else.
enum DecodingErrorMessage {
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "Missing required field \"\(path(context.codingPath + [key]))\"."
        case .valueNotFound(_, let context):
            return "Field \"\(path(context.codingPath))\" must not be null."
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return "The request body must be a JSON object."
        case .typeMismatch(let type, let context):
            return "Field \"\(path(context.codingPath))\" must be \(describe(type))."
        case .dataCorrupted(let context) where context.underlyingError is UnknownField:
            return "Unknown field \"\(path(context.codingPath))\"."
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "The request body is not valid JSON."
        case .dataCorrupted(let context):
            return "Field \"\(path(context.codingPath))\" is not valid: \(context.debugDescription)"
        @unknown default:
            return "The request body could not be read."
        }
    }

    /// The field's path, as `EchoedName` repeats it: a key of the client's choosing is cut and escaped.
    private static func path(_ keys: [any CodingKey]) -> String {
        EchoedName.text(
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "["))
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        default: "a value of the documented type"
        }
    }
}
