import Fluent
import SQLKit

/// The database Hale's repositories use: SQL access, and write transactions that serialise correctly on both
/// SQLite and PostgreSQL.
public struct HaleDatabase: Sendable {
    /// The Fluent database, for migrations and Fluent-level transactions.
    public let fluent: any Database
    /// The same database, for SQL.
    public let sql: any SQLDatabase
    /// Whether this is PostgreSQL, where `FOR UPDATE` and `SKIP LOCKED` exist.
    public let isPostgres: Bool

    /// Wraps a Fluent database; throws if its driver does not speak SQL.
    public init(_ fluent: any Database) throws {
        guard let sql = fluent as? any SQLDatabase else {
            throw ConfigError("the configured database driver does not support SQL")
        }
        self.fluent = fluent
        self.sql = sql
        self.isPostgres = sql.dialect.name == "postgresql"
    }

    /// Runs `body` in one transaction that holds the write lock from its start.
    ///
    /// On SQLite a plain `BEGIN` upgrades to a write lock only at the first write and fails at once with
    /// `SQLITE_BUSY` when another connection got there first; `BEGIN IMMEDIATE` takes the lock up front and waits
    /// for it instead. PostgreSQL uses an ordinary transaction; callers lock rows with `FOR UPDATE`.
    public func writeTransaction<T: Sendable>(
        _ body: @escaping @Sendable (HaleDatabase) async throws -> T
    ) async throws -> T {
        if isPostgres {
            return try await fluent.transaction { try await body(try HaleDatabase($0)) }
        }
        return try await fluent.withConnection { connection in
            let database = try HaleDatabase(connection)
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

    /// Whether `error` is a unique or other constraint violation reported by either driver.
    static func isConstraintViolation(_ error: any Error) -> Bool {
        (error as? any DatabaseError)?.isConstraintFailure == true
    }
}
