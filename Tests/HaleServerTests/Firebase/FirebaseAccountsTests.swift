import Foundation
import HaleTesting
import Logging
import Synchronization
import Testing
import Vapor

@testable import HaleServer

/// The uid → account mapping when first uses race, made deterministic: a repository that lets another request win
/// at the exact moment the race is lost.
@Suite("Firebase users as accounts: lost races")
struct FirebaseAccountsTests {
    /// The SQL repository, with the first lookup of a uid answering from before another request linked it, and a
    /// hook run before the first link.
    final class RacingRepository: SocialAccountRepository {
        let base: SQLSocialAccountRepository
        let staleLookups = Mutex(1)
        let beforeFirstLink: Mutex<(@Sendable () async throws -> Void)?>

        init(_ base: SQLSocialAccountRepository, beforeFirstLink: (@Sendable () async throws -> Void)? = nil) {
            self.base = base
            self.beforeFirstLink = Mutex(beforeFirstLink)
        }

        func identity(provider: String, subject: String) async throws -> SocialIdentity? {
            let stale = staleLookups.withLock { count in
                defer { count -= 1 }
                return count > 0
            }
            return stale ? nil : try await base.identity(provider: provider, subject: subject)
        }

        func link(_ identity: SocialIdentity, newAccount: HaleServer.Account?) async throws -> Bool {
            if let hook = beforeFirstLink.withLock({ hook in
                defer { hook = nil }; return hook
            }) {
                try await hook()
            }
            return try await base.link(identity, newAccount: newAccount)
        }

        func identity(provider: String, of account: AccountID) async throws -> SocialIdentity? {
            try await base.identity(provider: provider, of: account)
        }
        func identityCount(of account: AccountID) async throws -> Int { try await base.identityCount(of: account) }
        func apply(_ write: SocialSignInWrite, at date: Date) async throws -> Int64 {
            try await base.apply(write, at: date)
        }
        func unlink(_ identity: SocialIdentity, revokingTokensNamed tokenName: String, at date: Date) async throws {
            try await base.unlink(identity, revokingTokensNamed: tokenName, at: date)
        }
        func endAuthorization(of identity: SocialIdentity, revokingTokensNamed tokenName: String, at date: Date)
            async throws
        {
            try await base.endAuthorization(of: identity, revokingTokensNamed: tokenName, at: date)
        }
        func setRelayEmailDisabled(_ disabled: Bool, of identity: UUID) async throws {
            try await base.setRelayEmailDisabled(disabled, of: identity)
        }
    }

    static let user = VerifiedFirebaseUser(
        uid: "racing-firebase-user", email: "ana@example.com", emailVerified: true, authenticatedAt: Date(),
        expiresAt: Date().addingTimeInterval(3600))

    private func accounts(_ app: Application, _ repository: RacingRepository) throws -> FirebaseAccounts {
        let live = try #require(app.hale.firebase)
        return FirebaseAccounts(
            verifier: live.verifier, repository: repository, accounts: app.hale.accounts,
            emailAddresses: app.hale.emailAddresses, customTokens: nil, clock: app.hale.clock)
    }

    @Test(
        "A first use that finds the uid linked by another request meanwhile takes that account",
        arguments: TestDatabase.available)
    func lostTheLink(database: TestDatabase) async throws {
        try await FirebaseHarness.run(on: database) { harness in
            let app = harness.app
            let winner = try await app.hale.firebase!.account(of: Self.user, logger: app.logger)
            let racing = RacingRepository(SQLSocialAccountRepository(database: app.hale.database))
            let loser = try await accounts(app, racing).account(of: Self.user, logger: app.logger)
            #expect(loser == winner)
            #expect(try await harness.accountCount() == 1)
            #expect(try await harness.linkCount(uid: Self.user.uid) == 1)
        }
    }

    @Test(
        "A verified email another account takes meanwhile is kept unverified on the second try",
        arguments: TestDatabase.available)
    func lostTheEmail(database: TestDatabase) async throws {
        try await FirebaseHarness.run(on: database) { harness in
            let app = harness.app
            let racing = RacingRepository(SQLSocialAccountRepository(database: app.hale.database)) {
                _ = try await app.hale.accounts.create(email: try AccountEmail("ana@example.com"), role: "user")
            }
            let account = try await accounts(app, racing).account(of: Self.user, logger: app.logger)
            let made = try #require(try await app.hale.accounts.find(account))
            #expect(made.email == nil)
            #expect(made.unverifiedEmail == "ana@example.com")
            #expect(try await harness.accountCount() == 2)
            #expect(try await harness.linkCount(uid: Self.user.uid) == 1)
        }
    }

    @Test("Two first custom tokens of one account link one uid")
    func racingLinksOfOneAccount() async throws {
        try await FirebaseHarness.run { harness in
            let (account, _) = try await makeAccount(harness.app)
            let firebase = try #require(harness.app.hale.firebase)
            let uids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<6 { group.addTask { try await firebase.uid(of: account.id) } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(uids == [account.id.description])
            #expect(try await harness.linkCount(uid: account.id.description) == 1)
        }
    }
}
