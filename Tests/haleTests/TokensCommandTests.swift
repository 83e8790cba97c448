import ArgumentParser
import Foundation
import HaleServer
import HaleTesting
import Testing

@testable import hale

/// `hale tokens list | revoke` and `hale accounts create --expires-in`: what an operator sees and does.
@Suite("hale tokens")
struct TokensCommandTests {
    @Test func subcommandsParse() throws {
        let byEmail = try #require(
            try HaleCommand.parseAsRoot(["tokens", "list", "--email", "a@example.com"]) as? TokensCommand.List)
        #expect(byEmail.selection.email == "a@example.com" && byEmail.selection.account == nil)
        let revoke = try #require(try HaleCommand.parseAsRoot(["tokens", "revoke", "42"]) as? TokensCommand.Revoke)
        #expect(revoke.id == 42)
    }

    @Test(arguments: [[], ["--account", "x", "--email", "a@example.com"]])
    func listNamesExactlyOneAccount(arguments: [String]) {
        do {
            _ = try HaleCommand.parseAsRoot(["tokens", "list"] + arguments)
            Issue.record("tokens list parsed with \(arguments)")
        } catch {
            #expect(HaleCommand.message(for: error) == "Name the account with exactly one of --account and --email.")
        }
    }

    @Test func accountsCreateTakesAnExpiry() throws {
        let create = try AccountsCommand.Create.parse(["--email", "a@example.com", "--expires-in", "12h"])
        #expect(create.expiresIn == .seconds(43_200))
        #expect(try AccountsCommand.Create.parse(["--email", "a@example.com"]).expiresIn == nil)
    }

    @Test(arguments: ["0s", "soon", "3651d"])
    func aBadExpiryIsRefused(text: String) {
        do {
            _ = try AccountsCommand.Create.parse(["--email", "a@example.com", "--expires-in", text])
            Issue.record("--expires-in \(text) parsed")
        } catch {
            #expect(
                AccountsCommand.Create.message(for: error).contains(
                    #"--expires-in must be a positive duration such as 12h or 30d, not "\#(text)""#))
        }
    }

    @Test("accounts create --expires-in makes a token that expires then", arguments: TestDatabase.available)
    func createdTokenExpires(database: TestDatabase) async throws {
        let time = TestClock()
        try await withHale(on: database, clock: time.clock) { app in
            let command = try AccountsCommand.Create.parse(["--email", "ops@example.com", "--expires-in", "1h"])
            let output = try await command.create(using: app.hale)
            let id = try #require(Int64(output.token.split(separator: "|")[0]))
            #expect(try await app.hale.personalAccessTokens.find(id)?.expiresAt == time.clock.now() + 3600)
            time.advance(.seconds(3600))
            await #expect(throws: HaleError.expiredToken) { try await app.hale.bearerTokens.verify(output.token) }
        }
    }

    @Test("list shows every token of the account, revoked and expired included, never a secret")
    func listsEveryToken() async throws {
        let time = TestClock()
        try await withHale(clock: time.clock) { app in
            let (account, token) = try await makeAccount(app, email: "ops@example.com")
            _ = try await makeAccount(app, email: "other@example.com")
            let tokens = app.hale.personalAccessTokens
            let revoked = try await tokens.create(for: account.id, name: "revoked")
            try await tokens.revoke(revoked.id)
            let expiring = try await tokens.create(
                for: account.id, name: "google sign-in", expiresIn: .seconds(60), signInMethod: "google")
            time.advance(.seconds(61))
            for arguments in [["--email", "OPS@example.com"], ["--account", account.id.description]] {
                let rows = try await TokensCommand.List.parse(arguments).list(using: app.hale)
                #expect(rows.map(\.name) == ["google sign-in", "revoked", "test"])
                #expect(rows[0].expiresAt == time.clock.now() - 1 && rows[0].signInMethod == "google")
                #expect(rows[1].revokedAt == time.clock.now() - 61 && rows[2].revokedAt == nil)
                let printed = try CommandOutput.json(rows)
                #expect(!printed.contains(String(token.split(separator: "|")[1])))
                #expect(!printed.contains(String(expiring.token.split(separator: "|")[1])))
            }
        }
    }

    @Test(arguments: [
        (["--email", "nobody@example.com"], "No account has the email address nobody@example.com."),
        (["--account", "not-a-uuid"], "No account has the id not-a-uuid."),
        (
            ["--account", "6e8bc430-9c3a-11d9-9669-0800200c9a66"],
            "No account has the id 6e8bc430-9c3a-11d9-9669-0800200c9a66."
        ),
    ])
    func listOfNoAccountIsAUsageError(arguments: [String], message: String) async throws {
        try await withHale { app in
            let error = await #expect(throws: ValidationError.self) {
                try await TokensCommand.List.parse(arguments).list(using: app.hale)
            }
            #expect(error?.message == message)
        }
    }

    @Test("revoke ends the token at once and audits it as the operator's", arguments: TestDatabase.available)
    func revokes(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, token) = try await makeAccount(app)
            let id = String(token.split(separator: "|")[0])
            try await TokensCommand.Revoke.parse([id]).revoke(using: app.hale)
            await #expect(throws: HaleError.invalidToken) { try await app.hale.bearerTokens.verify(token) }
            let events = try await app.hale.audit.events(of: account.id)
            #expect(events.map(\.eventType) == ["personal_access_token_revoked"])
            #expect(events.first?.details == #"{"by":"operator","tokenId":"\#(id)"}"#)
        }
    }

    @Test(arguments: ["999", "revoked"])
    func revokingNoUnrevokedTokenIsAUsageError(which: String) async throws {
        try await withHale { app in
            let (_, token) = try await makeAccount(app)
            let id = String(token.split(separator: "|")[0])
            if which == "revoked" { try await TokensCommand.Revoke.parse([id]).revoke(using: app.hale) }
            let target = which == "revoked" ? id : which
            let error = await #expect(throws: ValidationError.self) {
                try await TokensCommand.Revoke.parse([target]).revoke(using: app.hale)
            }
            #expect(error?.message == "No unrevoked personal access token has id \(target).")
        }
    }
}
