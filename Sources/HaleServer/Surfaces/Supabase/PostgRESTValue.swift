import Foundation

/// A value of a served column: read from a row to be written as JSON as PostgREST writes it, or read from a filter
/// to be bound in SQL as its column's type.
enum PostgRESTValue: Equatable, Sendable {
    case null
    case text(String)
    case integer(Int)
    /// A finite number, as `numeric` is written.
    case number(Double)
    case boolean(Bool)
    case timestamp(Date)
    case list([String])

    /// A filter's text as a value to bind for a column of `type`, or PostgreSQL's `22P02`.
    static func bindable(_ text: String, as type: PostgRESTTable.ColumnType) throws -> any Encodable & Sendable {
        switch type {
        case .uuid:
            guard let uuid = UUID(uuidString: text) else { throw PostgRESTError.invalidValue(text, type: "uuid") }
            return uuid
        case .integer:
            guard text.utf8.count <= 18, let number = Int(text) else {
                throw PostgRESTError.invalidValue(text, type: "integer")
            }
            return number
        case .number:
            guard text.utf8.count <= 32, let number = Double(text), number.isFinite else {
                throw PostgRESTError.invalidValue(text, type: "numeric")
            }
            return number
        case .boolean:
            switch text.lowercased() {
            case "true", "t": return true
            case "false", "f": return false
            default: throw PostgRESTError.invalidValue(text, type: "boolean")
            }
        case .timestamp:
            guard let date = timestamp(text) else {
                throw PostgRESTError.invalidValue(text, type: "timestamp with time zone")
            }
            return date
        case .text, .textList:
            return text
        }
    }

    /// A timestamp as clients write one: ISO 8601 with or without fractional seconds, `Z` or an offset, or a date
    /// alone (its midnight in UTC).
    static func timestamp(_ text: String) -> Date? {
        guard text.utf8.count <= 40 else { return nil }
        if let stamp = ClientTimestamp(text.replacingOccurrences(of: " ", with: "T")) { return stamp.instant }
        if let day = LocalDate(text) { return Date(timeIntervalSince1970: Double(day.dayNumber) * 86_400) }
        return nil
    }

    /// The JSON PostgREST writes for it: timestamps as `2025-10-28T09:00:00.123+00:00`.
    var json: String {
        switch self {
        case .null: "null"
        case .text(let text): Self.quoted(text)
        case .integer(let number): String(number)
        case .number(let number):
            number.isFinite
                ? (number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)) : "null"
        case .boolean(let flag): flag ? "true" : "false"
        case .timestamp(let date): Self.quoted(ISO8601.string(date).replacingOccurrences(of: "Z", with: "+00:00"))
        case .list(let items): "[" + items.map(Self.quoted).joined(separator: ",") + "]"
        }
    }

    private static func quoted(_ text: String) -> String {
        CanonicalJSON.text(of: .string(text))
    }
}
