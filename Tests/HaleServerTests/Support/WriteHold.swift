import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor

@testable import HaleServer

/// Runs two racers on PostgreSQL in the one order that shows a missing lock, every run: the first is held inside its
/// transaction when it writes a row of a table (a trigger waits there for an advisory lock the test holds), the
/// second starts and runs until it waits for a lock or commits, and only then are both let go.
///
/// A race test of many racers makes a bad interleaving likely; this makes it certain, where the interleaving that
/// matters is "the first has read, but not committed, when the second commits".
struct WriteHold {
    let app: Application

    private static let advisoryKey = 21_021

    /// Installs the trigger on `table`: from now on every `event` (`UPDATE`, `INSERT`, `DELETE`) of its rows waits
    /// while the hold is taken.
    static func install(after event: Event = .update, on table: String, in app: Application) async throws -> WriteHold {
        let sql = app.hale.database.sql
        try await sql.raw(
            """
            CREATE FUNCTION hale_test_hold() RETURNS trigger AS $$
            BEGIN PERFORM pg_advisory_xact_lock_shared(\(unsafeRaw: String(advisoryKey))); RETURN NEW; END
            $$ LANGUAGE plpgsql
            """
        ).run()
        try await sql.raw(
            """
            CREATE TRIGGER hale_test_hold AFTER \(unsafeRaw: event.rawValue) ON \(ident: table)
            FOR EACH ROW EXECUTE FUNCTION hale_test_hold()
            """
        ).run()
        return WriteHold(app: app)
    }

    enum Event: String {
        case insert = "INSERT"
        case update = "UPDATE"
        case delete = "DELETE"
    }

    /// Runs `first` until it is held, then `second` until it waits for a lock or `secondCommitted` answers true,
    /// then lets both finish; answers both results.
    func race<First: Sendable, Second: Sendable>(
        _ first: @escaping @Sendable () async throws -> First,
        then second: @escaping @Sendable () async throws -> Second,
        secondCommitted: @escaping @Sendable () async throws -> Bool
    ) async throws -> (First, Second) {
        let release = try await take()
        let firstTask = Task { try await first() }
        let secondTask: Task<Second, any Error>
        do {
            try await waitUntil(lockWaiters: 1)
            secondTask = Task { try await second() }
            try await waitUntil(lockWaiters: 2, or: secondCommitted)
        } catch {
            release()
            _ = try? await firstTask.value
            throw error
        }
        release()
        return (try await firstTask.value, try await secondTask.value)
    }

    /// Takes the advisory lock in a transaction kept open until the answered function is called.
    private func take() async throws -> @Sendable () -> Void {
        let (taken, tookIt) = AsyncStream<Void>.makeStream()
        let (released, release) = AsyncStream<Void>.makeStream()
        let key = Self.advisoryKey
        let holder = Task {
            // Ends the stream however the transaction ends, so a failure to take the lock cannot leave us waiting.
            defer { tookIt.finish() }
            try await app.hale.database.writeTransaction { database in
                try await database.sql.raw("SELECT pg_advisory_xact_lock(\(unsafeRaw: String(key)))").run()
                tookIt.yield()
                for await _ in released { break }
            }
        }
        var iterator = taken.makeAsyncIterator()
        guard await iterator.next() != nil else {
            try await holder.value
            throw CancellationError()
        }
        return { release.finish() }
    }

    /// Waits until `count` statements of this database wait for a lock, or `done` answers true; 10 s at most.
    private func waitUntil(
        lockWaiters count: Int, or done: @escaping @Sendable () async throws -> Bool = { false }
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if try await lockWaiters() >= count { return }
            if try await done() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("no racer waited for a lock within 10 s")
        throw CancellationError()
    }

    private func lockWaiters() async throws -> Int {
        try await app.hale.database.sql.raw(
            """
            SELECT COUNT(*) AS waiting FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
            """
        ).first(decodingColumn: "waiting", as: Int.self) ?? 0
    }
}
