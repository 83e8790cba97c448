import Foundation
import SQLKit

/// Reads a served table for a PostgREST query, always within one account's rows: the query's filters, order and
/// range become SQL over Hale's own table, every value bound, every name one of the table's known columns.
struct SQLPostgRESTReader: PostgRESTRowReader {
    let database: HaleDatabase

    func read(_ table: PostgRESTTable, _ query: PostgRESTQuery, account: AccountID, counting: Bool)
        async throws -> (rows: [PostgRESTRow], total: Int?)
    {
        let columns = try query.columns.map { names in try names.map(table.column) } ?? table.columns
        let conditions = try conditions(table, query, account: account)
        let select = database.sql.select().from(table.stored)
        for column in columns { select.column(column.expression, as: column.name) }
        for condition in conditions { select.where(condition) }
        for ordering in query.order {
            let column = try table.column(ordering.column)
            let direction: SQLQueryString = ordering.descending ? " DESC" : " ASC"
            let nulls: SQLQueryString = ordering.nullsFirst ? " NULLS FIRST" : " NULLS LAST"
            select.orderBy("\(column.expression)\(direction)\(nulls)" as SQLQueryString)
        }
        select.orderBy(SQLColumn("id"))
        if let limit = query.limit { select.limit(limit) }
        if let offset = query.offset { select.offset(offset) }
        let rows = try await select.all().map { row in try Self.values(of: row, columns) }
        guard counting else { return (rows, nil) }
        let count = database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "total")
            .from(table.stored)
        for condition in conditions { count.where(condition) }
        return (rows, try await count.first(decodingColumn: "total", as: Int.self) ?? 0)
    }

    /// The account's scope, then each filter.
    private func conditions(_ table: PostgRESTTable, _ query: PostgRESTQuery, account: AccountID) throws
        -> [SQLQueryString]
    {
        var conditions: [SQLQueryString] = ["\(ident: table.owner) = \(bind: account)"]
        for filter in query.filters {
            let column = try table.column(filter.column)
            let condition = try Self.condition(filter, on: column)
            conditions.append(filter.negated ? "NOT (\(condition))" : condition)
        }
        return conditions
    }

    private static func condition(_ filter: PostgRESTQuery.Filter, on column: PostgRESTTable.Column) throws
        -> SQLQueryString
    {
        let name = column.expression
        if filter.op == .is {
            switch filter.values.first {
            case "true": return "\(name) = \(bind: true)"
            case "false": return "\(name) = \(bind: false)"
            default: return "\(name) IS NULL"
            }
        }
        guard column.type != .textList else {
            throw PostgRESTError.parse("\(column.name) is a list: only select and is.null read it here")
        }
        let values = try filter.values.map { SQLBind(try PostgRESTValue.bindable($0, as: column.type)) }
        switch filter.op {
        case .eq: return "\(name) = \(values[0])"
        case .neq: return "\(name) <> \(values[0])"
        case .gt: return "\(name) > \(values[0])"
        case .gte: return "\(name) >= \(values[0])"
        case .lt: return "\(name) < \(values[0])"
        case .lte: return "\(name) <= \(values[0])"
        case .in:
            guard !values.isEmpty else { return "1 = 0" }
            return "\(name) IN \(SQLGroupExpression(values))"
        case .is: return "\(name) IS NULL"
        }
    }

    private static func values(of row: any SQLRow, _ columns: [PostgRESTTable.Column]) throws -> PostgRESTRow {
        try columns.map { column in (column.name, try Self.value(of: column.name, as: column.type, in: row)) }
    }

    /// The value of `column`, of `type`, in `row`.
    private static func value(of column: String, as type: PostgRESTTable.ColumnType, in row: any SQLRow) throws
        -> PostgRESTValue
    {
        if try row.decodeNil(column: column) { return .null }
        switch type {
        case .uuid: return .text(try row.decode(column: column, as: UUID.self).uuidString.lowercased())
        case .text: return .text(try row.decode(column: column, as: String.self))
        case .integer: return .integer(try row.decode(column: column, as: Int.self))
        case .number: return .number(try row.decode(column: column, as: Double.self))
        case .boolean: return .boolean(try row.decode(column: column, as: Bool.self))
        case .timestamp: return .timestamp(try row.decode(column: column, as: Date.self))
        case .textList:
            let joined = try row.decode(column: column, as: String.self)
            return .list(joined.split(separator: ",").map(String.init))
        }
    }
}

extension PostgRESTTable.Column {
    /// What SQL reads it as.
    fileprivate var expression: any SQLExpression {
        computed.map { SQLRaw($0) } ?? SQLIdentifier(stored)
    }
}
