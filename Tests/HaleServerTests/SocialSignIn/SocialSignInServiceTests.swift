import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor

@testable import HaleServer

/// What social sign-in does with accounts once a provider's token is verified: the verifier here answers from a
/// script, so that these tests are about accounts; the providers' tokens are tested against fake providers.
@Suite("Social sign-in: accounts, roles and linking")
struct SocialSignInServiceTests {
    /// Answers every token with the identity it was given.
    struct ScriptedVerifier: SocialIdentityVerifier {
        let identity: VerifiedSocialIdentity?

        func verify(provider: String, token: String, nonce: String?, logger: Logger) async throws
            -> VerifiedSocialIdentity
        {
            guard let identity else {
                throw HaleError(.oauthInvalidToken, .unauthenticated, message: "The token is not valid.")
            }
            return identity
        }
    }

    /// The service with `identity` as the provider's answer; a link by verified address waits `linkDelay`.
    static func service(
        _ app: Application, _ identity: VerifiedSocialIdentity?, link: Bool = false, linkDelay: Duration = .zero
    ) -> SocialSignIn {
        SocialSignIn(
            verifier: ScriptedVerifier(identity: identity),
            repository: SQLSocialAccountRepository(database: app.hale.database),
            devices: SQLDeviceRepository(database: app.hale.database), accounts: app.hale.accounts,
            audit: app.hale.audit, emailAddresses: app.hale.emailAddresses, linkByVerifiedEmail: link,
            recoveries: AccountRecoveries(
                repository: SQLAccountRecoveryRepository(database: app.hale.database),
                emailAddresses: app.hale.emailAddresses, sessions: app.hale.sessions,
                devices: SQLDeviceRepository(database: app.hale.database), audit: app.hale.audit,
                delay: linkDelay, clock: app.hale.clock),
            tokenLifetime: app.hale.configuration.tokens.socialSignInTokenLifetime, appleTokens: nil,
            clock: app.hale.clock)
    }

    static func identity(_ subject: String = "g-1", email: String? = "ana@example.com", verified: Bool = true)
        -> VerifiedSocialIdentity
    {
        VerifiedSocialIdentity(subject: subject, email: email, emailVerified: verified, privateRelayEmail: false)
    }

    static func request(
        _ role: SocialRole = .client, provider: String = "google", cleaner: CleanerProfile? = nil,
        services: [Int64] = [], deviceTokens: [String] = []
    ) -> SocialSignInRequest {
        SocialSignInRequest(
            provider: provider, token: "t", nonce: nil, authorizationCode: nil, role: role, cleaner: cleaner,
            previousServices: services,
            preferredServices: [], deviceTokens: deviceTokens)
    }

    static let logger = Logger(label: "test")

    static let cleaner = CleanerProfile(
        phone: "+962792002802", availableDays: [.monday], timeSlots: [.evening], maxHoursPerWeek: 40,
        acceptsUrgentOffers: true, yearsOfExperience: 3, hasCleaningSupplies: false, comfortableWithPets: true,
        serviceRadius: 15)

    static func count(_ table: String, _ app: Application) async throws -> Int {
        try await app.hale.database.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first()?
            .decode(column: "n", as: Int.self) ?? -1
    }

    @Test(
        "a first sign-in creates the account, and its token works as a bearer token", arguments: TestDatabase.available)
    func signUp(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let result = try await Self.service(app, Self.identity()).signIn(Self.request(), logger: Self.logger)
            #expect(result.createdAccount)
            #expect(result.role == "client")
            #expect(result.token.hasPrefix("\(result.tokenId)|"))
            let verified = try await app.hale.personalAccessTokens.verify(result.token)
            #expect(verified.accountId == result.accountId)
            let account = try #require(try await app.hale.accounts.find(result.accountId))
            #expect(account.email == "ana@example.com")
            #expect(account.role == "client")
        }
    }

    @Test("an address the provider verified is the account's verified address; an unverified one is not")
    func providerVerifiedAddresses() async throws {
        try await withHale { app in
            let signedUp = try await Self.service(app, Self.identity()).signIn(Self.request(), logger: Self.logger)
            let kept = try await app.hale.emailAddresses.list(of: signedUp.accountId)
            #expect(kept.map(\.address) == ["ana@example.com"] && kept.map(\.verifiedBy) == ["google"])
            let unverified = try await Self.service(app, Self.identity("g-2", email: "bo@example.com", verified: false))
                .signIn(Self.request(), logger: Self.logger)
            #expect(try await app.hale.emailAddresses.list(of: unverified.accountId).isEmpty)
            let types = try await app.hale.audit.events(of: signedUp.accountId).map(\.eventType)
            #expect(types.contains("email_address_added"))
        }
    }

    @Test("a new address the provider verified later is kept, and the account's other addresses are told")
    func providerVerifiedAddressIsTold() async throws {
        try await withHale { app in
            let signedUp = try await Self.service(app, Self.identity()).signIn(Self.request(), logger: Self.logger)
            let changed = Self.identity(email: "ana.new@example.com")
            _ = try await Self.service(app, changed).signIn(Self.request(), logger: Self.logger)
            let kept = try await app.hale.emailAddresses.list(of: signedUp.accountId).map(\.address)
            #expect(Set(kept) == ["ana@example.com", "ana.new@example.com"])
            let mailbox = Mailbox(app: app)
            #expect(try await mailbox.kinds(to: "ana@example.com").filter { $0 == "address_added" }.count == 1)
            #expect(try await mailbox.kinds(to: "ana.new@example.com").isEmpty)
            _ = try await Self.service(app, changed).signIn(Self.request(), logger: Self.logger)
            #expect(
                try await mailbox.kinds(to: "ana@example.com").filter { $0 == "address_added" }.count == 1, "told once")
        }
    }

    @Test("a returning identity signs in to the same account with a new token", arguments: TestDatabase.available)
    func returning(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let service = Self.service(app, Self.identity())
            let first = try await service.signIn(Self.request(), logger: Self.logger)
            let second = try await service.signIn(Self.request(), logger: Self.logger)
            #expect(!second.createdAccount)
            #expect(second.accountId == first.accountId)
            #expect(second.token != first.token)
            #expect(try await Self.count("accounts", app) == 1)
            #expect(try await Self.count("social_identities", app) == 1)
        }
    }

    @Test("a cleaner's profile and services are stored at sign-up", arguments: TestDatabase.available)
    func cleanerSignUp(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let result = try await Self.service(app, Self.identity()).signIn(
                Self.request(.cleaner, cleaner: Self.cleaner, services: [4, 9], deviceTokens: ["fcm-1"]),
                logger: Self.logger)
            let profile = try #require(
                try await app.hale.database.sql.select().column("*").from("cleaner_profiles")
                    .where("account_id", .equal, result.accountId).first())
            #expect(try profile.decode(column: "phone", as: String.self) == "+962792002802")
            #expect(try profile.decode(column: "service_radius_km", as: Int.self) == 15)
            #expect(try await Self.count("account_services", app) == 2)
            #expect(try await Self.count("push_registrations", app) == 1)
        }
    }

    @Test("signing in cannot change an account's role", arguments: TestDatabase.available)
    func roleIsKept(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let service = Self.service(app, Self.identity())
            _ = try await service.signIn(Self.request(), logger: Self.logger)
            let refused = await #expect(throws: InvalidInput.self) {
                try await service.signIn(Self.request(.cleaner, cleaner: Self.cleaner), logger: Self.logger)
            }
            // Seed 003's renderer words it: a 422 pointing at the body's role.
            let error = refused.map(JSONAPIErrorRenderer().domainError(for:))
            #expect(error?.status == 422)
            #expect(error?.code == .validationFailed)
            #expect(error?.fieldErrors.map(\.pointer) == ["/data/attributes/role"])
        }
    }

    @Test(
        "a new identity with a taken verified email is refused unless linking is on", arguments: TestDatabase.available)
    func emailTaken(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let owner = try await app.hale.accounts.create(email: try AccountEmail("ana@example.com"), role: "client")
            let error = await #expect(throws: HaleError.self) {
                try await Self.service(app, Self.identity()).signIn(Self.request(), logger: Self.logger)
            }
            #expect(error?.status == 409)
            #expect(error?.code == .oauthError)
            #expect(try await Self.count("social_identities", app) == 0)
            #expect(try await Self.count("personal_access_tokens", app) == 0)
            let linked = try await Self.service(app, Self.identity(), link: true).signIn(
                Self.request(), logger: Self.logger)
            #expect(linked.accountId == owner.id)
            #expect(!linked.createdAccount)
            let events = try await app.hale.audit.events(of: owner.id)
            // Newest first: the sign-in came from a device the account had not seen, the address Google verified was
            // kept, then the identity joined it.
            #expect(events.map(\.eventType) == ["social_identity_linked", "email_address_added", "new_device_sign_in"])
        }
    }

    @Test("linking by a verified address waits as recovery by email does: told, cancellable, then linked")
    func linkingWaits() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let owner = try await app.hale.accounts.create(email: try AccountEmail("ana@example.com"), role: "client")
            let waiting = Self.service(app, Self.identity(), link: true, linkDelay: .seconds(86_400))
            for _ in 0..<2 {
                let pending = await #expect(throws: HaleError.self) {
                    try await waiting.signIn(Self.request(), logger: Self.logger)
                }
                #expect(pending?.status == 409 && pending?.message.contains("can join it from") == true)
            }
            #expect(try await Self.count("social_identities", app) == 0)
            let recoveries = try await app.hale.accountRecoveries.waiting(of: owner.id)
            #expect(recoveries.map(\.method) == ["social_link"], "told once, however often it is tried")
            time.advance(.seconds(86_400))
            let linked = try await waiting.signIn(Self.request(), logger: Self.logger)
            #expect(linked.accountId == owner.id)

            let other = Self.service(
                app, Self.identity("g-9", email: "ana@example.com"), link: true, linkDelay: .seconds(60))
            let first = await #expect(throws: HaleError.self) {
                try await other.signIn(Self.request(), logger: Self.logger)
            }
            #expect(first?.status == 409)
            let link = try #require(try await app.hale.accountRecoveries.waiting(of: owner.id).first)
            try await app.hale.accountRecoveries.cancel(link.id, by: AuditTrail.Subject(account: owner.id))
            time.advance(.seconds(120))
            let refused = await #expect(throws: HaleError.self) {
                try await other.signIn(Self.request(), logger: Self.logger)
            }
            #expect(refused?.message == SocialSignIn.emailTaken.message, "a cancelled link is refused for good")
        }
    }

    @Test("linking by email cannot change the role either", arguments: TestDatabase.available)
    func linkingKeepsTheRole(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            _ = try await app.hale.accounts.create(email: try AccountEmail("ana@example.com"), role: "client")
            let invalid = await #expect(throws: InvalidInput.self) {
                try await Self.service(app, Self.identity(), link: true).signIn(
                    Self.request(.cleaner, cleaner: Self.cleaner), logger: Self.logger)
            }
            let refused = invalid.map(JSONAPIErrorRenderer().domainError(for:))
            #expect(refused?.code == .validationFailed)
            #expect(refused?.message == "This account is registered as client; signing in cannot change its role.")
            #expect(try await Self.count("social_identities", app) == 0)
        }
    }

    @Test("an unverified email never links and is kept only as unverified", arguments: TestDatabase.available)
    func unverifiedEmail(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let owner = try await app.hale.accounts.create(email: try AccountEmail("ana@example.com"), role: "client")
            let result = try await Self.service(app, Self.identity(verified: false), link: true).signIn(
                Self.request(), logger: Self.logger)
            #expect(result.accountId != owner.id)
            let account = try #require(try await app.hale.accounts.find(result.accountId))
            #expect(account.email == nil)
            #expect(account.unverifiedEmail == "ana@example.com")
        }
    }

    @Test("the same subject from another provider is another identity", arguments: TestDatabase.available)
    func providersAreSeparate(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let google = try await Self.service(app, Self.identity(email: nil)).signIn(
                Self.request(), logger: Self.logger)
            let apple = try await Self.service(app, Self.identity(email: nil)).signIn(
                Self.request(provider: "apple"), logger: Self.logger)
            #expect(google.accountId != apple.accountId)
        }
    }

    @Test("a push token moves to the account that sent it last", arguments: TestDatabase.available)
    func pushTokenMoves(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            _ = try await Self.service(app, Self.identity("a", email: nil)).signIn(
                Self.request(deviceTokens: ["fcm"]), logger: Self.logger)
            let second = try await Self.service(app, Self.identity("b", email: nil)).signIn(
                Self.request(deviceTokens: ["fcm"]), logger: Self.logger)
            let row = try #require(
                try await app.hale.database.sql.select().column("account_id")
                    .from("push_registrations").first())
            #expect(try row.decode(column: "account_id", as: AccountID.self) == second.accountId)
            #expect(try await Self.count("push_registrations", app) == 1)
        }
    }

    @Test("a refused token writes nothing", arguments: TestDatabase.available)
    func refusedTokenWritesNothing(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let refused = await #expect(throws: HaleError.self) {
                try await Self.service(app, nil).signIn(Self.request(), logger: Self.logger)
            }
            #expect(refused?.code == .oauthInvalidToken)
            #expect(refused?.message == "The token is not valid.")
            let accounts = try await Self.count("accounts", app)
            #expect(accounts == 0)
        }
    }
}
