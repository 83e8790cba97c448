/// A row of a served table: each selected column's name and value, in the order selected.
typealias PostgRESTRow = [(name: String, value: PostgRESTValue)]

/// What seed 004's surface needs from storage: the account's rows of a served table that a PostgREST query selects.
/// Storage implements it (`SQLPostgRESTReader`) in SQL over Hale's own tables.
protocol PostgRESTRowReader: Sendable {
    /// The account's rows of `table` that `query` selects, and, when `counting`, how many rows its filters match
    /// without the range.
    func read(_ table: PostgRESTTable, _ query: PostgRESTQuery, account: AccountID, counting: Bool)
        async throws -> (rows: [PostgRESTRow], total: Int?)
}
