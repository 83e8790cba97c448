import Logging
import NIOCore
import SQLKit

/// SQLite outside a transaction: every statement that may write waits its turn at the write gate, the one queue of
/// write transactions, and runs on the writer's connections; reads go straight to their own connections, and in
/// write-ahead-log mode they never wait for a writer.
///
/// Without it, a single-statement write (a device rename, a failed-signature count) went straight to SQLite, whose
/// driver waits for the write lock by spinning on a thread for up to its busy timeout: behind a long transaction it
/// failed as a 500, and enough of them together could take every thread the lock's holder needed to commit.
struct GatedSQLDatabase: SQLDatabase {
    let reader: any SQLDatabase
    let writer: any SQLDatabase
    let gate: WriteGate

    var logger: Logger { reader.logger }
    var eventLoop: any EventLoop { reader.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { reader.version }
    var dialect: any SQLDialect { reader.dialect }
    var queryLogLevel: Logger.Level? { reader.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void)
        -> EventLoopFuture<Void>
    {
        guard mayWrite(query) else { return reader.execute(sql: query, onRow) }
        return eventLoop.makeFutureWithTask { try await execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        guard mayWrite(query) else { return try await reader.execute(sql: query, onRow) }
        try await gate.through { try await writer.execute(sql: query, onRow) }
    }

    /// A session is one of the writer's connections; its writes queue at the gate one by one.
    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await writer.withSession { [gate] session in
            try await closure(GatedSQLDatabase(reader: session, writer: session, gate: gate))
        }
    }

    /// Whether the statement may write: anything but a `SELECT`, judged by its type, or for raw SQL by its first
    /// word. A `WITH … SELECT` is queued too; being cautious costs it a wait, never a wrong answer.
    private func mayWrite(_ query: any SQLExpression) -> Bool {
        if query is SQLSelect || query is SQLUnion { return false }
        let text = serialize(query).sql
        let firstWord = text.drop { $0 == " " || $0 == "\n" || $0 == "(" }.prefix(6)
        return firstWord.uppercased() != "SELECT"
    }
}
