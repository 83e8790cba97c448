import Foundation
import HaleTesting
import Testing

@testable import HaleServer

@Suite("Sessions and refresh tokens")
struct SessionTests {
    @Test(arguments: TestDatabase.available)
    func refreshRotatesTheToken(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, _) = try await makeAccount(app)
            let first = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            let second = try await app.hale.sessions.refresh(first.refreshToken)
            #expect(second.sessionId == first.sessionId)
            #expect(second.refreshToken != first.refreshToken)
            let third = try await app.hale.sessions.refresh(second.refreshToken)
            #expect(third.sessionId == first.sessionId)
        }
    }

    @Test(arguments: TestDatabase.available)
    func reuseOutsideTheGracePeriodRevokesTheFamily(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let sessions = app.hale.sessions
            let first = try await sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            let second = try await sessions.refresh(first.refreshToken)
            time.advance(.seconds(11))
            await #expect(throws: HaleError.reusedToken) { try await sessions.refresh(first.refreshToken) }
            await #expect(throws: HaleError.invalidToken) { try await sessions.refresh(second.refreshToken) }
            let stored = try #require(try await sessions.find(first.sessionId))
            #expect(stored.revokeReason == "refresh_token_reuse")
            await #expect(throws: HaleError.invalidToken) {
                try await app.hale.bearerTokens.verify(second.accessToken)
            }
        }
    }

    @Test(
        "the grace period's edges: a retry at exactly 10 s gets the successor, one at 10.001 s is a reuse",
        arguments: TestDatabase.available)
    func gracePeriodEdges(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let sessions = app.hale.sessions
            let atEdge = try await sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            let successor = try await sessions.refresh(atEdge.refreshToken)
            time.advance(.seconds(10))
            #expect(try await sessions.refresh(atEdge.refreshToken).refreshToken == successor.refreshToken)

            let pastEdge = try await sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            _ = try await sessions.refresh(pastEdge.refreshToken)
            time.advance(.milliseconds(10_001))
            await #expect(throws: HaleError.reusedToken) { try await sessions.refresh(pastEdge.refreshToken) }
        }
    }

    @Test(arguments: TestDatabase.available)
    func aRetryWithinTheGracePeriodGetsTheSameSuccessor(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let sessions = app.hale.sessions
            let first = try await sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            let lost = try await sessions.refresh(first.refreshToken)
            time.advance(.seconds(5))
            let retried = try await sessions.refresh(first.refreshToken)
            #expect(retried.refreshToken == lost.refreshToken)
            #expect(retried.accessToken != lost.accessToken)
            #expect(try await sessions.refresh(retried.refreshToken).sessionId == first.sessionId)
            let session = try #require(try await sessions.find(first.sessionId))
            #expect(session.revokedAt == nil)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aGraceRetryAfterTheSuccessorWasUsedIsReuse(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let sessions = app.hale.sessions
            let first = try await sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            let second = try await sessions.refresh(first.refreshToken)
            time.advance(.seconds(1))
            _ = try await sessions.refresh(second.refreshToken)
            time.advance(.seconds(1))
            await #expect(throws: HaleError.reusedToken) { try await sessions.refresh(first.refreshToken) }
        }
    }

    @Test(arguments: TestDatabase.available)
    func rememberMeChoosesTheLongerLifetime(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let now = time.clock.now()
            let short = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            let long = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: true)
            #expect(short.refreshTokenExpiresAt == now.addingTimeInterval(7 * 86_400))
            #expect(long.refreshTokenExpiresAt == now.addingTimeInterval(30 * 86_400))
        }
    }

    @Test(arguments: TestDatabase.available)
    func anExpiredSessionCannotRefresh(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            time.advance(.seconds(7 * 86_400 + 1))
            await #expect(throws: HaleError.expiredToken) { try await app.hale.sessions.refresh(pair.refreshToken) }
        }
    }

    @Test(arguments: TestDatabase.available)
    func logoutAndLogoutEverywhere(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, _) = try await makeAccount(app)
            let sessions = app.hale.sessions
            let one = try await sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            let two = try await sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            let three = try await sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            #expect(try await sessions.revoke(one.sessionId, of: account.id))
            #expect(try await sessions.revoke(one.sessionId, of: account.id) == false)
            #expect(try await sessions.revoke(two.sessionId, of: .random()) == false)
            await #expect(throws: HaleError.invalidToken) { try await sessions.refresh(one.refreshToken) }
            #expect(
                try await sessions.signOutEverywhere(account.id)
                    == Sessions.SignedOutEverywhere(sessions: 2, personalAccessTokens: 1))
            await #expect(throws: HaleError.invalidToken) { try await sessions.refresh(two.refreshToken) }
            await #expect(throws: HaleError.invalidToken) { try await sessions.refresh(three.refreshToken) }
        }
    }

    @Test(
        "listing the active sessions and signing out everywhere touch only the account's own",
        arguments: TestDatabase.available)
    func everywhereMeansTheAccountsOwn(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, _) = try await makeAccount(app, email: "one@example.com")
            let (other, _) = try await makeAccount(app, email: "other@example.com")
            let sessions = app.hale.sessions
            let own = try await sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            let others = try await sessions.start(
                account: other.id, device: nil, signInMethod: "test", rememberMe: false)
            #expect(try await sessions.active(of: account.id).map(\.id) == [own.sessionId])
            #expect(try await sessions.signOutEverywhere(account.id).sessions == 1)
            #expect(try await sessions.active(of: account.id).isEmpty)
            #expect(try await sessions.active(of: other.id).map(\.id) == [others.sessionId])
            #expect(try await sessions.refresh(others.refreshToken).sessionId == others.sessionId)
        }
    }

    @Test(
        "a session is active until its end: listed 1 ms before it, not at it", arguments: TestDatabase.available)
    func activeUntilItsEnd(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let sessions = app.hale.sessions
            let session = try await sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            time.advance(sessions.lifetimes.standard - .milliseconds(1))
            #expect(try await sessions.active(of: account.id).map(\.id) == [session.sessionId])
            time.advance(.milliseconds(1))
            #expect(try await sessions.active(of: account.id).isEmpty)
        }
    }

    @Test(arguments: TestDatabase.available)
    func refreshTokensAreStoredOnlyAsHashes(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, _) = try await makeAccount(app)
            let pair = try await app.hale.sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            let rows = try await app.hale.database.sql.raw("SELECT token_hash FROM refresh_tokens").all()
            let hashes = try rows.map { try $0.decode(column: "token_hash", as: String.self) }
            #expect(hashes == [OpaqueToken.hash(pair.refreshToken)])
        }
    }

    @Test(.racesNeedPostgreSQL, arguments: TestDatabase.available)
    func concurrentRefreshesOfOneTokenLeaveOneLiveSuccessor(database: TestDatabase) async throws {
        // A clock that stands still: on a loaded machine ten queued refreshes can outlast the real grace period.
        try await withHale(on: database, clock: TestClock().clock) { app in
            let (account, _) = try await makeAccount(app)
            let sessions = app.hale.sessions
            let pair = try await sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            let results = await withTaskGroup(of: TokenPair?.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        do { return try await sessions.refresh(pair.refreshToken) } catch {
                            Issue.record("a concurrent refresh failed: \(String(reflecting: error))")
                            return nil
                        }
                    }
                }
                return await group.reduce(into: [TokenPair]()) { if let pair = $1 { $0.append(pair) } }
            }
            #expect(results.count == 10)
            // Exactly one successor was stored, and it is the one every caller got: without the row lock, racing
            // rotations each store their own.
            let live = try await app.hale.database.sql
                .raw("SELECT token_hash FROM refresh_tokens WHERE spent_at IS NULL").all()
                .map { try $0.decode(column: "token_hash", as: String.self) }
            #expect(live.count == 1)
            #expect(results.allSatisfy { live.contains(OpaqueToken.hash($0.refreshToken)) })
        }
    }

    @Test(
        "a session's refresh lifetime's edges: 1 ms before its end it rotates, at its end it has expired",
        arguments: TestDatabase.available)
    func refreshLifetimeEdges(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let (account, _) = try await makeAccount(app)
            let sessions = app.hale.sessions
            let lifetime = sessions.lifetimes.standard
            let beforeEdge = try await sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            time.advance(lifetime - .milliseconds(1))
            _ = try await sessions.refresh(beforeEdge.refreshToken)

            let atEdge = try await sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            time.advance(lifetime)
            await #expect(throws: HaleError.expiredToken) { try await sessions.refresh(atEdge.refreshToken) }
        }
    }

    @Test(
        "a refresh, and a retry within the grace period, change only their own session and token",
        arguments: TestDatabase.available)
    func aRefreshLeavesOtherSessionsAlone(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let (account, _) = try await makeAccount(app, email: "one@example.com")
            let (other, _) = try await makeAccount(app, email: "other@example.com")
            let sessions = app.hale.sessions
            let refreshed = try await sessions.start(
                account: account.id, device: nil, signInMethod: "test", rememberMe: false)
            let bystander = try await sessions.start(
                account: other.id, device: nil, signInMethod: "test", rememberMe: true)
            let before = try #require(try await sessions.find(bystander.sessionId))

            time.advance(.seconds(60))
            _ = try await sessions.refresh(refreshed.refreshToken)
            time.advance(.seconds(5))
            _ = try await sessions.refresh(refreshed.refreshToken)

            #expect(try await sessions.find(bystander.sessionId) == before)
            time.advance(.seconds(60))
            let next = try await sessions.refresh(bystander.refreshToken)
            #expect(next.sessionId == bystander.sessionId)
            #expect(next.refreshTokenExpiresAt == time.clock.now().addingTimeInterval(30 * 86_400))
        }
    }

    @Test("a handoff code that names another account's session is refused", arguments: TestDatabase.available)
    func handoffOfAnotherAccountsSession(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (owner, _) = try await makeAccount(app, email: "owner@example.com")
            let (other, _) = try await makeAccount(app, email: "other@example.com")
            let session = try await app.hale.sessions.start(
                account: owner.id, device: nil, signInMethod: "test", rememberMe: false)
            let notAfter = String(app.hale.clock.now().addingTimeInterval(600).timeIntervalSince1970)
            // A code bound to one account and another's session: `issue` never pairs them, only a forged row could.
            let forged = try await app.hale.challenges.issue(
                kind: SessionHandoffs.kind,
                binding: ChallengeBinding(accountId: other.id, deviceId: nil, sessionId: session.sessionId),
                lifetime: .seconds(60), context: notAfter)
            await #expect(throws: HaleError.invalidChallenge) { try await app.hale.handoffs.redeem(forged.value) }
        }
    }
}
