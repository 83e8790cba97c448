import Foundation
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// A write transaction that takes long, on SQLite's one writer: writes queue behind it and then all succeed, and
/// reads and token checks answer while it is still open.
@Suite("Storage: a long writer holds back writes, never reads")
struct WriteQueueTests {
    /// Holds a transaction open until the test lets it go, or until a deadline.
    actor Hold {
        private var started = false
        private var released = false

        func start() { started = true }

        func waitUntilStarted() async throws {
            while !started { try await Task.sleep(for: .milliseconds(10)) }
        }

        func release() { released = true }

        /// Whether the test released it before `deadline`.
        func waitForRelease(deadline: Duration) async -> Bool {
            let end = ContinuousClock.now + deadline
            while !released, ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(10)) }
            return released
        }
    }

    /// On one event loop, with one connection per pool: reads would wait for the transaction's connection, and the
    /// writes for the lock, if either shared the writer's connection or skipped the gate.
    @Test("while a write transaction is open, 16 reads answer and 16 writes wait; then every write succeeds")
    func writesQueueReadsDoNot() async throws {
        try await withHale(on: .sqlite, eventLoops: 1) { app in
            let (account, _) = try await makeAccount(app)
            var started: [TokenPair] = []
            for _ in 0..<32 {
                started.append(
                    try await app.hale.sessions.start(
                        account: account.id, device: nil, signInMethod: "test", rememberMe: false))
            }
            let sessions = started
            let hold = Hold()
            let transaction = Task {
                try await app.hale.database.writeTransaction { database in
                    try await database.sql.raw("UPDATE accounts SET updated_at = updated_at").run()
                    await hold.start()
                    // Long enough for sixteen reads on a machine loaded by the whole suite (8 s was not, twice);
                    // reads that waited for this writer would still end only after it, and fail the test.
                    return await hold.waitForRelease(deadline: .seconds(60))
                }
            }
            try await hold.waitUntilStarted()
            let writes = Task {
                try await withThrowingTaskGroup(of: Bool.self) { group in
                    for session in sessions[16...] {
                        group.addTask { try await app.hale.sessions.revoke(session.sessionId, of: account.id) }
                    }
                    return try await group.reduce(into: [Bool]()) { $0.append($1) }
                }
            }
            try await Task.sleep(for: .milliseconds(200))
            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                for session in sessions[..<16] {
                    group.addTask {
                        try await app.testing().sendRequest(
                            .GET, "/api/v1/account", headers: .bearer(session.accessToken)
                        ).status.code
                    }
                }
                return try await group.reduce(into: [UInt]()) { $0.append($1) }
            }
            await hold.release()
            #expect(statuses == Array(repeating: 200, count: 16))
            #expect(try await transaction.value, "the reads waited for the writer: the transaction was let go late")
            #expect(try await writes.value == Array(repeating: true, count: 16))
        }
    }
}
