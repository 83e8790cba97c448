import Foundation

/// A read of one table as PostgREST's query string says it, the subset supabase-js and supabase-py send for seed
/// 004's app: `select` (columns or `*`), horizontal filters (`eq`, `neq`, `gt`, `gte`, `lt`, `lte`, `in`, `is`, each
/// optionally under `not.`), `order` (with `nullsfirst` / `nullslast`), `limit` and `offset`. Anything outside it is
/// refused with PostgREST's own error, so a client learns at once that Hale does not serve it.
struct PostgRESTQuery: Equatable {
    /// A filter's operator.
    enum Operator: String, Equatable, CaseIterable {
        case eq, neq, gt, gte, lt, lte, `in`, `is`
    }

    /// `column=[not.]op.value`.
    struct Filter: Equatable {
        let column: String
        let negated: Bool
        let op: Operator
        /// One value, or the list of `in`; `is` takes `null`, `true`, `false` or `unknown`.
        let values: [String]
    }

    /// One term of `order`.
    struct Ordering: Equatable {
        let column: String
        let descending: Bool
        /// PostgreSQL's default when not given: nulls last ascending, first descending.
        let nullsFirst: Bool
    }

    /// The columns asked for, in order; nil for `*` (every column, in the table's order).
    var columns: [String]?
    var filters: [Filter] = []
    var order: [Ordering] = []
    var limit: Int?
    var offset: Int?

    /// The longest query string value read; PostgREST clients send a few hundred bytes.
    static let maximumValueLength = 4096
    /// The most filters, `in` values or ordering terms one request may carry.
    static let maximumTerms = 100
    /// The names of the query parameters that are not filters.
    static let reserved: Set<String> = ["select", "order", "limit", "offset", "columns", "on_conflict", "and", "or"]

    /// Reads `items` (the decoded query string, in order).
    static func parse(_ items: [(name: String, value: String)]) throws(PostgRESTError) -> PostgRESTQuery {
        var query = PostgRESTQuery()
        guard items.count <= maximumTerms else { throw .parse("too many query parameters") }
        for (name, value) in items {
            guard value.utf8.count <= maximumValueLength, name.utf8.count <= 256 else {
                throw .parse("a query parameter is longer than \(maximumValueLength) bytes")
            }
            switch name {
            case "select": query.columns = try columns(value)
            case "order": query.order = try ordering(value)
            case "limit": query.limit = try count(value, named: "limit")
            case "offset": query.offset = try count(value, named: "offset")
            case "columns", "on_conflict": continue
            case "and", "or": throw .parse("logic trees (\(name)) are not served here")
            default: query.filters.append(try filter(column: name, value))
            }
        }
        return query
    }

    /// `*`, or column names separated by commas.
    private static func columns(_ text: String) throws(PostgRESTError) -> [String]? {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if names == ["*"] { return nil }
        guard names.count <= maximumTerms, names.allSatisfy(isIdentifier) else {
            throw .parse("failed to parse select parameter (\(text)): only column names or * are served here")
        }
        return names
    }

    private static func ordering(_ text: String) throws(PostgRESTError) -> [Ordering] {
        let terms = text.split(separator: ",", omittingEmptySubsequences: false)
        guard terms.count <= maximumTerms else { throw .parse("too many order terms") }
        return try terms.map { (term) throws(PostgRESTError) -> Ordering in
            let parts = term.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let column = parts.first, isIdentifier(column), parts.count <= 3 else {
                throw .parse("failed to parse order (\(text))")
            }
            var descending = false
            var nulls: Bool?
            for modifier in parts.dropFirst() {
                switch modifier {
                case "asc": descending = false
                case "desc": descending = true
                case "nullsfirst": nulls = true
                case "nullslast": nulls = false
                default: throw .parse("failed to parse order (\(text))")
                }
            }
            return Ordering(column: column, descending: descending, nullsFirst: nulls ?? descending)
        }
    }

    private static func count(_ text: String, named name: String) throws(PostgRESTError) -> Int {
        guard text.utf8.count <= 9, let number = Int(text), number >= 0 else {
            throw .parse("\(name) must be a whole number from 0 to 999999999, not \(text)")
        }
        return number
    }

    private static func filter(column: String, _ text: String) throws(PostgRESTError) -> Filter {
        guard isIdentifier(column) else { throw .parse("failed to parse filter (\(column))") }
        var rest = Substring(text)
        let negated = rest.hasPrefix("not.")
        if negated { rest = rest.dropFirst(4) }
        guard let dot = rest.firstIndex(of: "."), let op = Operator(rawValue: String(rest[..<dot])) else {
            throw .parse("failed to parse filter (\(text))")
        }
        let operand = String(rest[rest.index(after: dot)...])
        switch op {
        case .in: return Filter(column: column, negated: negated, op: op, values: try list(operand, text))
        case .is:
            guard ["null", "true", "false", "unknown"].contains(operand) else {
                throw .parse("failed to parse filter (\(text)): is takes null, true, false or unknown")
            }
            return Filter(column: column, negated: negated, op: op, values: [operand])
        default: return Filter(column: column, negated: negated, op: op, values: [operand])
        }
    }

    /// `(a,b,"c,d")`: values separated by commas, a value in double quotes may hold commas and `\"`.
    private static func list(_ operand: String, _ text: String) throws(PostgRESTError) -> [String] {
        guard operand.hasPrefix("("), operand.hasSuffix(")"), operand.count >= 2 else {
            throw .parse("failed to parse filter (\(text)): in takes a list such as (a,b)")
        }
        if operand == "()" { return [] }
        var values: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in operand.dropFirst().dropLast() {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" && quoted {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                values.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        guard !quoted, !escaped else { throw .parse("failed to parse filter (\(text)): an unclosed quote") }
        values.append(current)
        guard values.count <= maximumTerms else { throw .parse("in takes at most \(maximumTerms) values") }
        return values
    }

    /// A column name as PostgREST reads one unquoted: letters, digits and `_`, not starting with a digit.
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first, !(0x30...0x39).contains(first), text.utf8.count <= 63 else { return false }
        return text.utf8.allSatisfy { byte in
            (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == 0x5F
        }
    }
}
