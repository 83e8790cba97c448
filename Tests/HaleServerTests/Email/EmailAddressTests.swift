import Foundation
import HaleTesting
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// Verified email addresses: a code mailed, tried at most five times, used once, stored hashed; the same answer for
/// every address; caps on what a person can make Hale mail; a fresh sign-in to add or remove.
@Suite("HTTP: verified email addresses")
struct EmailAddressTests {
    static let settings = MobileBiometricTests.settings

    struct API {
        let app: Application

        func requestCode(_ email: String, bearer: String) async throws -> TestingHTTPResponse {
            try await post("/api/v1/account/emails", ["email": email], bearer: bearer)
        }

        func verify(_ email: String, code: String, bearer: String) async throws -> TestingHTTPResponse {
            try await post("/api/v1/account/emails/verify", ["email": email, "code": code], bearer: bearer)
        }

        func list(bearer: String) async throws -> [[String: Any]] {
            let response = try await app.testing().sendRequest(.GET, "/api/v1/account/emails", headers: .bearer(bearer))
            #expect(response.status == .ok, "\(response.body.string)")
            return try #require(try response.json()["emails"] as? [[String: Any]])
        }

        func remove(_ email: String, bearer: String) async throws -> TestingHTTPResponse {
            try await app.testing().sendRequest(.DELETE, "/api/v1/account/emails/\(email)", headers: .bearer(bearer))
        }

        private func post(_ path: String, _ body: [String: String], bearer: String) async throws
            -> TestingHTTPResponse
        {
            try await app.testing().sendRequest(
                .POST, path, headers: .json(bearer: bearer), body: ByteBuffer(data: try JSONEncoder().encode(body)))
        }

        /// Adds and verifies `email` for the account of `bearer`.
        func add(_ email: String, bearer: String) async throws {
            let asked = try await requestCode(email, bearer: bearer)
            #expect(asked.status == .accepted, "\(asked.body.string)")
            let code = try #require(try await Mailbox(app: app).code(to: email))
            let verified = try await verify(email, code: code, bearer: bearer)
            #expect(verified.status == .ok, "\(verified.body.string)")
        }
    }

    @Test(
        "an address is added with the code mailed to it, stored hashed, and listed", arguments: TestDatabase.available)
    func addAndVerify(database: TestDatabase) async throws {
        try await withHale(on: database, settings: Self.settings) { app in
            let api = API(app: app)
            let (account, fresh) = try await makeSignedInAccount(app)
            let asked = try await api.requestCode(" Person@Example.COM ", bearer: fresh)
            #expect(asked.status == .accepted, "\(asked.body.string)")
            #expect(Set(try asked.json().keys) == ["email", "expiresAt"])
            #expect(try asked.json()["email"] as? String == "person@example.com")
            let code = try #require(try await Mailbox(app: app).code(to: "person@example.com"))
            #expect(code.wholeMatch(of: /[0-9]{6}/) != nil)

            let stored = try await app.hale.database.sql.raw("SELECT code_hash, id FROM email_codes").all()
            #expect(stored.count == 1)
            #expect(try stored[0].decode(column: "code_hash", as: String.self).count == 64)
            let outbox = try await app.hale.database.sql.raw("SELECT data FROM mail_outbox").all()
            #expect(try outbox.allSatisfy { !(try $0.decode(column: "data", as: String.self)).contains(code) })

            let verified = try await api.verify("person@example.com", code: code, bearer: fresh)
            #expect(verified.status == .ok, "\(verified.body.string)")
            #expect(try verified.json()["verifiedBy"] as? String == "code")
            let listed = try await api.list(bearer: fresh)
            #expect(listed.map { $0["email"] as? String } == ["person@example.com"])
            let again = try await api.verify("person@example.com", code: code, bearer: fresh)
            #expect(try again.coreError().error.code == "EMAIL_CODE_INVALID", "a code works once")
            let types = try await app.hale.audit.events(of: account.id).map(\.eventType)
            #expect(types.contains("email_address_added"))
        }
    }

    @Test("adding or removing an address needs a fresh sign-in once the account has a credential")
    func needsFreshSignIn() async throws {
        try await withHale(settings: Self.settings) { app in
            let (account, operatorToken) = try await makeAccount(app)
            try await DeviceAPI(app: app).register(try DeviceClient(.iOS), bearer: operatorToken)
            let refused = try await API(app: app).requestCode("person@example.com", bearer: operatorToken)
            #expect(refused.status == .unauthorized)
            #expect(try refused.coreError().error.code == "FRESH_SIGN_IN_REQUIRED")
            let fresh = try await freshSignIn(app, account.id)
            try await API(app: app).add("person@example.com", bearer: fresh)
            let removal = try await API(app: app).remove("person@example.com", bearer: operatorToken)
            #expect(try removal.coreError().error.code == "FRESH_SIGN_IN_REQUIRED")
        }
    }

    @Test("the fifth try may be right; after five wrong ones even the right code is refused")
    func attemptsStopAtFive() async throws {
        try await withHale(settings: Self.settings) { app in
            let api = API(app: app)
            let (_, fresh) = try await makeSignedInAccount(app)
            _ = try await api.requestCode("a@example.com", bearer: fresh)
            let code = try #require(try await Mailbox(app: app).code(to: "a@example.com"))
            let wrong = Self.wrong(code)
            for _ in 1...4 {
                let guessed = try await api.verify("a@example.com", code: wrong, bearer: fresh)
                #expect(guessed.status == .badRequest)
                #expect(try guessed.coreError().error.code == "EMAIL_CODE_INVALID")
            }
            #expect(try await api.verify("a@example.com", code: code, bearer: fresh).status == .ok)

            _ = try await api.requestCode("b@example.com", bearer: fresh)
            let second = try #require(try await Mailbox(app: app).code(to: "b@example.com"))
            for _ in 1...5 {
                _ = try await api.verify("b@example.com", code: Self.wrong(second), bearer: fresh)
            }
            let exhausted = try await api.verify("b@example.com", code: second, bearer: fresh)
            #expect(try exhausted.coreError().error.code == "EMAIL_CODE_INVALID")
        }
    }

    @Test("another account's address gets a notice and no code, and the answer is the same")
    func knownAndUnknownAddressesLookAlike() async throws {
        try await withHale(settings: Self.settings) { app in
            let api = API(app: app)
            let (_, owner) = try await makeSignedInAccount(app, email: "owner@example.com")
            try await api.add("taken@example.com", bearer: owner)
            let (_, other) = try await makeSignedInAccount(app, email: "other@example.com")
            let taken = try await api.requestCode("taken@example.com", bearer: other)
            let free = try await api.requestCode("free@example.com", bearer: other)
            #expect(taken.status == free.status)
            #expect(Set(try taken.json().keys) == Set(try free.json().keys))
            let mails = try await Mailbox(app: app).kinds(to: "taken@example.com")
            #expect(mails == ["email_code", "address_in_use"])
            for guess in (0..<5).map({ String(format: "%06d", $0) }) {
                let tried = try await api.verify("taken@example.com", code: guess, bearer: other)
                #expect(try tried.coreError().error.code == "EMAIL_CODE_INVALID")
            }
        }
    }

    @Test("an address gets at most email.codesPerAddress requested mails an hour, whoever asks")
    func mailBombingIsCapped() async throws {
        try await withHale(settings: Self.settings.merging(["email.codesPerAddress": "2"]) { $1 }) { app in
            let api = API(app: app)
            let (_, first) = try await makeSignedInAccount(app, email: "one@example.com")
            let (_, second) = try await makeSignedInAccount(app, email: "two@example.com")
            #expect(try await api.requestCode("victim@example.com", bearer: first).status == .accepted)
            #expect(try await api.requestCode("victim@example.com", bearer: second).status == .accepted)
            let third = try await api.requestCode("victim@example.com", bearer: first)
            #expect(third.status == .tooManyRequests)
            #expect(third.headers.first(name: .retryAfter) != nil)
            #expect(try await Mailbox(app: app).kinds(to: "victim@example.com").count == 2)
        }
    }

    @Test("removing an address tells it and the account's other addresses")
    func removing() async throws {
        try await withHale(settings: Self.settings) { app in
            let api = API(app: app)
            let (account, fresh) = try await makeSignedInAccount(app)
            try await api.add("first@example.com", bearer: fresh)
            try await api.add("second@example.com", bearer: fresh)
            #expect(try await Mailbox(app: app).kinds(to: "first@example.com").last == "address_added")
            let removed = try await api.remove("second@example.com", bearer: fresh)
            #expect(removed.status == .noContent)
            #expect(try await Mailbox(app: app).kinds(to: "second@example.com").last == "address_removed")
            #expect(try await api.list(bearer: fresh).map { $0["email"] as? String } == ["first@example.com"])
            #expect(try await api.remove("second@example.com", bearer: fresh).status == .notFound)
            let types = try await app.hale.audit.events(of: account.id).map(\.eventType)
            #expect(types.contains("email_address_removed"))
        }
    }

    @Test("a new credential is mailed to the account's verified addresses")
    func securityAlertsAreMailed() async throws {
        try await withHale(settings: Self.settings) { app in
            let (_, fresh) = try await makeSignedInAccount(app)
            try await API(app: app).add("person@example.com", bearer: fresh)
            try await DeviceAPI(app: app).register(try DeviceClient(.iOS), bearer: fresh)
            let mailbox = Mailbox(app: app)
            #expect(try await mailbox.kinds(to: "person@example.com").last == "security_alert")
            let alert = try #require(try await mailbox.data(to: "person@example.com").last)
            #expect(alert["alertKind"] == "new_device")
            #expect(alert["device"] == "Test Phone", "the mail says which device the change came from")
        }
    }

    @Test("two uses of one code racing: one adds the address", arguments: TestDatabase.available)
    func racingVerifications(database: TestDatabase) async throws {
        try await withHale(on: database, settings: Self.settings) { app in
            let api = API(app: app)
            let (account, fresh) = try await makeSignedInAccount(app)
            _ = try await api.requestCode("race@example.com", bearer: fresh)
            let code = try #require(try await Mailbox(app: app).code(to: "race@example.com"))
            let service = app.hale.emailAddresses
            let subject = AuditTrail.Subject(account: account.id)
            let address = try EmailAddress.parse("race@example.com")
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 {
                    group.addTask { (try? await service.verify(address, code: code, by: subject)) != nil }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
            let events = try await app.hale.audit.events(of: account.id).filter {
                $0.eventType == "email_address_added"
            }
            #expect(events.count == 1)
        }
    }

    @Test("malformed addresses and codes are 400s naming the field")
    func badInput() async throws {
        try await withHale(settings: Self.settings) { app in
            let api = API(app: app)
            let (_, fresh) = try await makeSignedInAccount(app)
            for address in [
                "", "no-at-sign", "a@b", "a b@example.com", "x@example.com\r\nBcc: y@example.com",
                String(repeating: "a", count: 250) + "@example.com", "é@example.com",
            ] {
                let refused = try await api.requestCode(address, bearer: fresh)
                #expect(refused.status == .badRequest, "\(address)")
            }
            for code in ["12345", "1234567", "abcdef", String(repeating: "1", count: 100)] {
                let refused = try await api.verify("a@example.com", code: code, bearer: fresh)
                #expect(refused.status == .badRequest, "\(code)")
                #expect(try refused.coreError().error.code == "INVALID_REQUEST", "\(code)")
            }
        }
    }

    static func wrong(_ code: String) -> String {
        code == "000000" ? "000001" : "000000"
    }
}

/// Reads what Hale wrote to the mail outbox, opening sealed data as delivery does.
struct Mailbox {
    let app: Application

    /// The kinds of the mails to `address`, oldest first.
    func kinds(to address: String) async throws -> [String] {
        try await rows(to: address).map(\.kind)
    }

    /// The data of the mails to `address`, oldest first.
    func data(to address: String) async throws -> [[String: String]] {
        try await rows(to: address).map { MailOutbox.data(of: $0, sealer: app.hale.sealer) ?? [:] }
    }

    /// The newest code mailed to `address`.
    func code(to address: String) async throws -> String? {
        try await data(to: address).last { $0["code"] != nil }?["code"]
    }

    private func rows(to address: String) async throws -> [MailOutboxMessage] {
        try await app.hale.database.sql.select().column("*").from("mail_outbox").where("recipient", .equal, address)
            .orderBy("created_at").all(decoding: MailOutboxMessage.self, keyDecodingStrategy: .convertFromSnakeCase)
    }
}
