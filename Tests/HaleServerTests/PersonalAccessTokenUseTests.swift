import Foundation
import HaleTesting
import SQLKit
import Synchronization
import Testing
import Vapor

@testable import HaleServer

/// A token's last use is remembered in memory and written by a background job, so that authenticating a request
/// never writes and never waits behind a writer.
@Suite("Personal access tokens: last use without a write on the request path")
struct PersonalAccessTokenUseTests {
    static func storedLastUse(of id: Int64, _ app: Application) async throws -> Date? {
        try await app.hale.database.sql.select().column("last_used_at").from("personal_access_tokens")
            .where("id", .equal, id).first(decodingColumn: "last_used_at", as: Date?.self) ?? nil
    }

    static func id(of token: String) throws -> Int64 {
        try #require(Int64(token.split(separator: "|")[0]))
    }

    @Test(
        "verifying writes nothing; the owner's listing shows the use at once; the job writes it once",
        arguments: TestDatabase.available)
    func verifyingWritesNothing(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let (account, token) = try await makeAccount(app)
            let id = try Self.id(of: token)
            _ = try await app.hale.personalAccessTokens.verify(token)
            let used = time.clock.now()
            #expect(try await Self.storedLastUse(of: id, app) == nil)
            #expect(try await app.hale.personalAccessTokens.active(of: account.id).map(\.lastUsedAt) == [used])
            #expect(try await app.hale.personalAccessTokens.recordPendingUses() == 1)
            #expect(try await Self.storedLastUse(of: id, app) == used)
            #expect(try await app.hale.personalAccessTokens.recordPendingUses() == 0)
        }
    }

    @Test("many uses of one token between writes are one write of the latest", arguments: TestDatabase.available)
    func latestUseWins(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let (_, token) = try await makeAccount(app)
            var latest = time.clock.now()
            for _ in 0..<5 {
                latest = time.clock.now()
                _ = try await app.hale.personalAccessTokens.verify(token)
                time.advance(.seconds(7))
            }
            #expect(try await app.hale.personalAccessTokens.recordPendingUses() == 1)
            #expect(try await Self.storedLastUse(of: Self.id(of: token), app) == latest)
        }
    }

    @Test(
        "a use never moves a token's last use back, whichever instance writes last", arguments: TestDatabase.available)
    func neverBackwards(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (_, token) = try await makeAccount(app)
            let id = try Self.id(of: token)
            let repository = SQLPersonalAccessTokenRepository(database: app.hale.database)
            let later = HaleClock.wholeMilliseconds(Date())
            try await repository.recordUses([id: later])
            try await repository.recordUses([id: later.addingTimeInterval(-60)])
            #expect(try await Self.storedLastUse(of: id, app) == later)
        }
    }

    @Test("uses that could not be written are kept and written by the next pass")
    func keptAfterAFailedWrite() async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            let id = try Self.id(of: token)
            let repository = FailingUseRepository(SQLPersonalAccessTokenRepository(database: app.hale.database))
            let tokens = PersonalAccessTokens(
                repository: repository, audit: app.hale.audit, uses: PersonalAccessTokenUses(), clock: app.hale.clock)
            _ = try await tokens.verify(token)
            await #expect(throws: FailingUseRepository.Unavailable()) { try await tokens.recordPendingUses() }
            #expect(try await Self.storedLastUse(of: id, app) == nil)
            repository.failing.withLock { $0 = false }
            #expect(try await tokens.recordPendingUses() == 1)
            #expect(try await Self.storedLastUse(of: id, app) != nil)
        }
    }

    @Test("uses not yet written are written when the application shuts down", arguments: TestDatabase.available)
    func writtenAtShutdown(database: TestDatabase) async throws {
        let (url, dispose) = try await database.provision()
        defer { Task { await dispose() } }
        let time = TestClock()
        let id = Mutex<Int64>(0)
        try await withHale(databaseURL: url, clock: time.clock) { app in
            let (_, token) = try await makeAccount(app)
            _ = try await app.hale.personalAccessTokens.verify(token)
            let tokenID = try Self.id(of: token)
            #expect(try await Self.storedLastUse(of: tokenID, app) == nil)
            id.withLock { $0 = tokenID }
        }
        try await withHale(databaseURL: url) { app in
            let stored = try await Self.storedLastUse(of: id.withLock { $0 }, app)
            #expect(stored == time.clock.now())
        }
    }

    @Test(
        "checking a token does not wait for another connection's write transaction to end",
        arguments: TestDatabase.available)
    func notBehindAWriter(database: TestDatabase) async throws {
        let (url, dispose) = try await database.provision()
        defer { Task { await dispose() } }
        try await withHale(databaseURL: url) { app in
            let (_, token) = try await makeAccount(app)
            let id = try Self.id(of: token)
            // A second application: its own connections, as another instance or a long job would have.
            try await withHale(databaseURL: url) { writer in
                let (locked, lockedSignal) = AsyncStream<Void>.makeStream()
                let (release, releaseSignal) = AsyncStream<Void>.makeStream()
                let holding = Flag()
                async let written: Void = writer.hale.database.writeTransaction { database in
                    // The token's own row: SQLite's write lock, and PostgreSQL's row lock an update would wait for.
                    try await database.sql.update("personal_access_tokens").set("name", to: "busy")
                        .where("id", .equal, id).run()
                    lockedSignal.yield()
                    await Self.first(of: release, orAfter: .seconds(15))
                    holding.value.withLock { $0 = false }
                }
                for await _ in locked { break }
                _ = try await app.hale.personalAccessTokens.verify(token)
                #expect(holding.value.withLock { $0 }, "the check waited for the writer to commit")
                releaseSignal.finish()
                try await written
            }
        }
    }

    /// Waits until `stream` ends or `limit` passes, whichever is first.
    static func first(of stream: AsyncStream<Void>, orAfter limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in stream {} }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }
}

/// Whether a writer still holds its transaction open.
final class Flag: Sendable {
    let value = Mutex(true)
}

/// The SQL repository, with writes of uses that fail while `failing` is set.
final class FailingUseRepository: PersonalAccessTokenRepository {
    struct Unavailable: Error, Equatable {}

    let base: SQLPersonalAccessTokenRepository
    let failing = Mutex(true)

    init(_ base: SQLPersonalAccessTokenRepository) { self.base = base }

    func create(_ token: PersonalAccessTokenRecord) async throws -> Int64 { try await base.create(token) }
    func find(_ id: Int64) async throws -> PersonalAccessTokenRecord? { try await base.find(id) }
    func tokens(of account: AccountID, activeAt date: Date?, limit: Int) async throws -> [PersonalAccessTokenRecord] {
        try await base.tokens(of: account, activeAt: date, limit: limit)
    }
    func recordUses(_ uses: [Int64: Date]) async throws {
        if failing.withLock({ $0 }) { throw Unavailable() }
        try await base.recordUses(uses)
    }
    func revoke(_ id: Int64, at date: Date) async throws -> Bool { try await base.revoke(id, at: date) }
    func revoke(_ id: Int64, of account: AccountID, at date: Date, audit: AuditAppend) async throws -> Bool {
        try await base.revoke(id, of: account, at: date, audit: audit)
    }
}
