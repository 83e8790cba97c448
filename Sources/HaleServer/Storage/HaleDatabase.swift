import Fluent
import FluentPostgresDriver
import NIOCore
import SQLKit
import Tracing

/// The database Hale's repositories use: SQL access, and write transactions that serialise correctly on both
/// SQLite and PostgreSQL.
///
/// Outside a transaction every operation asks for a database anew, so work spreads over the connection pools of
/// every event loop rather than queueing on one.
public struct HaleDatabase: Sendable {
    private let resolve: @Sendable () -> any SQLDatabase & Database
    /// The connections writes use: on SQLite a pool apart from the reads', so that a long write transaction, which
    /// holds its connection, never leaves a read waiting for one. The same as `resolve` on PostgreSQL.
    private let resolveWriter: @Sendable () -> any SQLDatabase & Database
    /// Queues SQLite writes, transactions and single statements alike; `nil` on PostgreSQL and inside a transaction.
    private let writeGate: WriteGate?
    /// Whether this is one transaction's connection, whose `writeTransaction` joins that transaction.
    private let inTransaction: Bool
    /// Whether this is PostgreSQL, where `FOR UPDATE` and `SKIP LOCKED` exist.
    public let isPostgres: Bool
    /// Queues this process's own audit appends on PostgreSQL before they take a connection: each waits for the
    /// audit table's lock, and a burst of them waiting inside transactions would hold every pooled connection.
    let auditGate: WriteGate

    /// A database resolved by `resolve` for each operation, and by `writer`, when given, for each write; throws if
    /// its driver does not speak SQL.
    public init(_ resolve: @escaping @Sendable () -> any Database, writer: (@Sendable () -> any Database)? = nil)
        throws
    {
        guard let sample = resolve() as? any SQLDatabase & Database else {
            throw ConfigError("the configured database driver does not support SQL")
        }
        isPostgres = sample.dialect.name == "postgresql"
        writeGate = isPostgres ? nil : WriteGate()
        auditGate = WriteGate()
        inTransaction = false
        self.resolve = Self.speakingSQL(resolve)
        resolveWriter = Self.speakingSQL(writer ?? resolve)
    }

    private static func speakingSQL(_ resolve: @escaping @Sendable () -> any Database)
        -> @Sendable () -> any SQLDatabase & Database
    {
        {
            guard let database = resolve() as? any SQLDatabase & Database else {
                preconditionFailure("the driver was checked to speak SQL when the database was configured")
            }
            return database
        }
    }

    private init(pinned: any SQLDatabase & Database, isPostgres: Bool) {
        self.resolve = { pinned }
        resolveWriter = { pinned }
        self.isPostgres = isPostgres
        writeGate = nil
        auditGate = WriteGate()
        inTransaction = true
    }

    /// What ends a `SELECT` that claims rows for this instance: on PostgreSQL, ` FOR UPDATE SKIP LOCKED`, so rows
    /// another instance is claiming are passed over rather than waited for; nothing on SQLite, which has one writer.
    var skipLocked: String { isPostgres ? " FOR UPDATE SKIP LOCKED" : "" }

    /// The Fluent database, for migrations.
    public var fluent: any Database { resolve() }
    /// The database, for SQL. On SQLite outside a transaction, statements that may write queue at the write gate
    /// and run on the writer's connections.
    public var sql: any SQLDatabase {
        guard let writeGate else { return resolve() }
        return GatedSQLDatabase(reader: resolve(), writer: resolveWriter(), gate: writeGate)
    }

    /// Runs `body` in one transaction that holds the write lock from its start.
    ///
    /// On SQLite a plain `BEGIN` upgrades to a write lock only at the first write and fails at once with
    /// `SQLITE_BUSY` when another connection got there first; `BEGIN IMMEDIATE` takes the lock up front and waits
    /// for it instead. PostgreSQL uses an ordinary transaction; callers lock rows with `FOR UPDATE`.
    ///
    /// Called on a transaction's own database, it joins that transaction, so a repository bound to it can write
    /// the change it records and its audit event together.
    public func writeTransaction<T: Sendable>(
        _ body: @escaping @Sendable (HaleDatabase) async throws -> T
    ) async throws -> T {
        if inTransaction { return try await body(self) }
        // Only within a traced request or delivery: a background job's claim every second is no trace of its own.
        guard ServiceContext.current != nil else { return try await transaction(body) }
        return try await withSpan("db.transaction", ofKind: .client) { span in
            span.attributes["db.system"] = isPostgres ? "postgresql" : "sqlite"
            return try await transaction(body)
        }
    }

    private func transaction<T: Sendable>(_ body: @escaping @Sendable (HaleDatabase) async throws -> T)
        async throws -> T
    {
        if isPostgres {
            return try await fluent.transaction { try await body(try Self.pinning($0, isPostgres: true)) }
        }
        guard let writeGate else { return try await immediateTransaction(body) }
        return try await writeGate.through { try await immediateTransaction(body) }
    }

    private func immediateTransaction<T: Sendable>(
        _ body: @escaping @Sendable (HaleDatabase) async throws -> T
    ) async throws -> T {
        try await resolveWriter().withConnection { connection in
            let database = try Self.pinning(connection, isPostgres: false)
            try await database.sql.raw("BEGIN IMMEDIATE").run()
            do {
                let result = try await body(database)
                try await database.sql.raw("COMMIT").run()
                return result
            } catch {
                try? await database.sql.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    private static func pinning(_ database: any Database, isPostgres: Bool) throws -> HaleDatabase {
        guard let sql = database as? any SQLDatabase & Database else {
            throw ConfigError("the configured database driver does not support SQL")
        }
        return HaleDatabase(pinned: sql, isPostgres: isPostgres)
    }

    /// Streams `rows`, in `COPY`'s text format, into `table` with `COPY … FROM STDIN`: PostgreSQL's bulk load, inside
    /// this database's transaction when it is one's. PostgreSQL only: SQLite has no `COPY`.
    ///
    /// `table` and `columns` are written into the statement as they are: pass only names from this code.
    func copy(into table: String, columns: [String], rows: ByteBuffer) async throws {
        try await copy(into: table, columns: columns) { write in try await write(rows) }
    }

    /// Streams what `produce` writes, in `COPY`'s text format, into `table`: the rows it encodes next are encoded
    /// while PostgreSQL loads the ones it wrote.
    func copy(
        into table: String, columns: [String],
        writing produce: @escaping @Sendable (_ write: @Sendable (ByteBuffer) async throws -> Void) async throws -> Void
    ) async throws {
        guard isPostgres, let postgres = resolve() as? any PostgresDatabase else {
            throw ConfigError("COPY needs PostgreSQL")
        }
        try await postgres.withConnection { connection in
            connection.eventLoop.makeFutureWithTask {
                try await connection.copyFrom(table: table, columns: columns, logger: connection.logger) { writer in
                    try await produce { try await writer.write($0) }
                }
            }
        }.get()
    }

    /// The rows of `query`, run through PostgresNIO itself (inside this database's transaction when it is one's),
    /// whose typed decoding of a row is several times faster than SQLKit's by-name decoding: for the reads that
    /// return thousands of rows. PostgreSQL only.
    func postgresRows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        guard isPostgres, let postgres = resolve() as? any PostgresDatabase else {
            throw ConfigError("PostgresNIO queries need PostgreSQL")
        }
        return try await postgres.withConnection { connection in
            connection.eventLoop.makeFutureWithTask {
                try await connection.query(query, logger: connection.logger).collect()
            }
        }.get()
    }

    /// Runs a PostgresNIO query, handing each row to `each` as it arrives rather than holding them all: for reads of
    /// many rows whose every row becomes something smaller.
    func postgresRows(_ query: PostgresQuery, each: @escaping @Sendable (PostgresRow) throws -> Void) async throws {
        guard isPostgres, let postgres = resolve() as? any PostgresDatabase else {
            throw ConfigError("PostgresNIO queries need PostgreSQL")
        }
        try await postgres.withConnection { connection in
            connection.eventLoop.makeFutureWithTask {
                for try await row in try await connection.query(query, logger: connection.logger) { try each(row) }
            }
        }.get()
    }

    /// Whether `error` is a unique or other constraint violation reported by either driver.
    static func isConstraintViolation(_ error: any Error) -> Bool {
        (error as? any DatabaseError)?.isConstraintFailure == true
    }
}
