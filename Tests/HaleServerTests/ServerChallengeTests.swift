import Foundation
import HaleTesting
import Testing

@testable import HaleServer

@Suite("Server challenges")
struct ServerChallengeTests {
    @Test(arguments: TestDatabase.available)
    func aChallengeIsConsumedOnce(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let challenges = app.hale.challenges
            let issued = try await challenges.issue(kind: "test", binding: .none, lifetime: .seconds(60))
            let consumed = try await challenges.consume(kind: "test", value: issued.value)
            #expect(consumed.id == issued.challenge.id)
            #expect(consumed.consumedAt != nil)
            await #expect(throws: ChallengeRejection.alreadyUsed) {
                try await challenges.consume(kind: "test", value: issued.value)
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func onlyTheHashIsStored(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let issued = try await app.hale.challenges.issue(kind: "test", binding: .none, lifetime: .seconds(60))
            #expect(issued.challenge.valueHash == OpaqueToken.hash(issued.value))
            let rows = try await app.hale.database.sql.raw("SELECT * FROM server_challenges").all()
            for row in rows {
                for column in row.allColumns {
                    let text = try? row.decode(column: column, as: String.self)
                    #expect(text != issued.value)
                }
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func anExpiredChallengeIsRejected(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let issued = try await app.hale.challenges.issue(kind: "test", binding: .none, lifetime: .seconds(120))
            time.advance(.seconds(121))
            await #expect(throws: ChallengeRejection.expired) {
                try await app.hale.challenges.consume(kind: "test", value: issued.value)
            }
        }
    }

    @Test(
        "a challenge's edges: consumed a millisecond before its lifetime ends, expired at exactly its end",
        arguments: TestDatabase.available)
    func lifetimeEdges(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let early = try await app.hale.challenges.issue(kind: "test", binding: .none, lifetime: .seconds(120))
            time.advance(.milliseconds(119_999))
            _ = try await app.hale.challenges.consume(kind: "test", value: early.value)
            // Issued now and checked exactly its lifetime later: the clock adds what the server added.
            let late = try await app.hale.challenges.issue(kind: "test", binding: .none, lifetime: .seconds(120))
            time.advance(.seconds(120))
            await #expect(throws: ChallengeRejection.expired) {
                try await app.hale.challenges.consume(kind: "test", value: late.value)
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func anUnknownValueOrAnotherKindIsRejected(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let issued = try await app.hale.challenges.issue(kind: "a", binding: .none, lifetime: .seconds(60))
            await #expect(throws: ChallengeRejection.unknown) {
                try await app.hale.challenges.consume(kind: "a", value: "never-issued")
            }
            await #expect(throws: ChallengeRejection.unknown) {
                try await app.hale.challenges.consume(kind: "b", value: issued.value)
            }
            _ = try await app.hale.challenges.consume(kind: "a", value: issued.value)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aChallengeBoundToAnotherAccountIsRejectedAndNotSpent(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let owner = AccountID.random()
            let issued = try await app.hale.challenges.issue(
                kind: "test", binding: ChallengeBinding(accountId: owner), lifetime: .seconds(60))
            await #expect(throws: ChallengeRejection.boundElsewhere) {
                try await app.hale.challenges.consume(
                    kind: "test", value: issued.value, binding: ChallengeBinding(accountId: .random()))
            }
            let consumed = try await app.hale.challenges.consume(
                kind: "test", value: issued.value, binding: ChallengeBinding(accountId: owner))
            #expect(consumed.accountId == owner)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aChallengeBoundToAnotherDeviceOrSessionIsRejectedAndNotSpent(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let account = AccountID.random()
            let bound = ChallengeBinding(accountId: account, deviceId: .random(), sessionId: .random())
            let issued = try await app.hale.challenges.issue(kind: "test", binding: bound, lifetime: .seconds(60))
            for other in [
                ChallengeBinding(accountId: account, deviceId: .random(), sessionId: bound.sessionId),
                ChallengeBinding(accountId: account, deviceId: bound.deviceId, sessionId: .random()),
            ] {
                await #expect(throws: ChallengeRejection.boundElsewhere) {
                    try await app.hale.challenges.consume(kind: "test", value: issued.value, binding: other)
                }
            }
            let consumed = try await app.hale.challenges.consume(kind: "test", value: issued.value, binding: bound)
            #expect(consumed.deviceId == bound.deviceId && consumed.sessionId == bound.sessionId)
        }
    }

    @Test(.racesNeedPostgreSQL, arguments: TestDatabase.available)
    func fiftyConcurrentConsumersExactlyOneWins(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let challenges = app.hale.challenges
            let issued = try await challenges.issue(kind: "race", binding: .none, lifetime: .seconds(60))
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        do {
                            _ = try await challenges.consume(kind: "race", value: issued.value)
                            return true
                        } catch ChallengeRejection.alreadyUsed {
                            return false
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.count == 50)
            #expect(outcomes.filter { $0 }.count == 1)
        }
    }

    @Test(arguments: TestDatabase.available)
    func purgeDeletesOnlyLongExpiredChallenges(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            _ = try await app.hale.challenges.issue(kind: "old", binding: .none, lifetime: .seconds(60))
            time.advance(.seconds(7200))
            let fresh = try await app.hale.challenges.issue(kind: "new", binding: .none, lifetime: .seconds(60))
            #expect(try await app.hale.challenges.purge(olderThan: .seconds(3600)) == 1)
            _ = try await app.hale.challenges.consume(kind: "new", value: fresh.value)
        }
    }
}
