import Foundation
import HaleTesting
import SQLKit
import Synchronization
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

    /// Runs `first` until it is held, then `second` until it waits for a lock or has finished, then lets both
    /// finish; answers both results.
    func race<First: Sendable, Second: Sendable>(
        _ first: @escaping @Sendable () async throws -> First,
        then second: @escaping @Sendable () async throws -> Second
    ) async throws -> (First, Second) {
        let release = try await take()
        let firstRacer = Racer(first)
        do {
            try await waitUntil(lockWaiters: 1, while: firstRacer, "the first racer to be held")
        } catch {
            release()
            _ = try? await firstRacer.task.value
            throw error
        }
        let secondRacer = Racer(second)
        do {
            try await waitUntil(
                lockWaiters: 2, orFinished: secondRacer, "the second racer to wait for a lock or finish")
        } catch {
            release()
            _ = try? await firstRacer.task.value
            _ = try? await secondRacer.task.value
            throw error
        }
        release()
        return (try await firstRacer.task.value, try await secondRacer.task.value)
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

    /// Waits until `count` statements of this database wait for a lock; fails if `racer` finishes first, since then
    /// it never wrote to the held table.
    private func waitUntil<Value>(
        lockWaiters count: Int, while racer: Racer<Value>, _ what: String
    ) async throws {
        try await poll(what) {
            if try await lockWaiters() >= count { return true }
            guard !racer.isFinished else {
                Issue.record("the first racer finished without being held: it never wrote to the held table")
                throw CancellationError()
            }
            return false
        }
    }

    /// Waits until `count` statements of this database wait for a lock or `racer` has finished (and so committed).
    private func waitUntil<Value>(
        lockWaiters count: Int, orFinished racer: Racer<Value>, _ what: String
    ) async throws {
        try await poll(what) { racer.isFinished ? true : try await lockWaiters() >= count }
    }

    /// Polls `done` until it answers true. The deadline only ends a hang: on a loaded machine the racers' requests
    /// can take many seconds to reach their statements, so it is far above what they need.
    private func poll(_ what: String, until done: @Sendable () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + Self.patience
        while ContinuousClock.now < deadline {
            if try await done() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("waited \(Self.patience) for \(what)")
        throw CancellationError()
    }

    private static let patience = Duration.seconds(180)

    private func lockWaiters() async throws -> Int {
        try await app.hale.database.sql.raw(
            """
            SELECT COUNT(*) AS waiting FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
            """
        ).first(decodingColumn: "waiting", as: Int.self) ?? 0
    }
}

/// A racer's task, and whether it has finished.
private final class Racer<Value: Sendable>: Sendable {
    let task: Task<Value, any Error>
    private let finished: Finished

    init(_ body: @escaping @Sendable () async throws -> Value) {
        let finished = Finished()
        self.finished = finished
        task = Task {
            defer { finished.value.store(true, ordering: .releasing) }
            return try await body()
        }
    }

    var isFinished: Bool { finished.value.load(ordering: .acquiring) }
}

private final class Finished: Sendable {
    let value = Atomic(false)
}
