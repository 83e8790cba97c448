import ArgumentParser
import Foundation
import HaleServer
import HaleTesting
import Testing

@testable import hale

@Suite("The hale command line")
struct CommandLineTests {
    @Test func subcommandsParse() throws {
        #expect(try HaleCommand.parseAsRoot(["serve"]) is Serve)
        #expect(try HaleCommand.parseAsRoot(["migrate", "--config", "hale.yaml"]) is Migrate)
        #expect(try HaleCommand.parseAsRoot(["keys", "rotate"]) is KeysCommand.Rotate)
        let create = try #require(
            try HaleCommand.parseAsRoot(["accounts", "create", "--email", "a@example.com", "--role", "cleaner"])
                as? AccountsCommand.Create)
        #expect(create.email == "a@example.com")
        #expect(create.role == "cleaner")
        let defaulted = try HaleCommand.parseAsRoot(["accounts", "create", "--email", "a@example.com"])
        #expect((defaulted as? AccountsCommand.Create)?.role == "user")
    }

    @Test func accountsCreateRequiresAnEmail() {
        #expect(throws: (any Error).self) { try HaleCommand.parseAsRoot(["accounts", "create"]) }
    }

    @Test func helpNamesEveryCommand() {
        let help = HaleCommand.helpMessage()
        for command in ["serve", "migrate", "accounts", "keys", "--config"] {
            #expect(help.contains(command), "help lacks \(command)")
        }
    }

    @Test func theConfigFileAndEnvironmentAreRead() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hale-\(UUID()).yaml")
        try "server:\n  port: 9999\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let options = try GlobalOptions.parse(["--config", file.path])
        #expect(try options.loadConfiguration(environment: [:]).server.port == 9999)
        #expect(try options.loadConfiguration(environment: ["HALE_SERVER_PORT": "7777"]).server.port == 7777)
        #expect(throws: ValidationError.self) {
            try options.loadConfiguration(environment: ["HALE_SERVER_PORT": "many"])
        }
    }

    @Test func accountsCreateMakesAnAccountAndAWorkingToken() async throws {
        try await withHale { app in
            let command = try AccountsCommand.Create.parse(["--email", "Ops@Example.com", "--role", "admin"])
            let output = try await command.create(using: app.hale)
            let account = try #require(try await app.hale.accounts.find(email: try AccountEmail("ops@example.com")))
            #expect(output.accountId == account.id.description)
            #expect(account.role == "admin")
            #expect(try await app.hale.bearerTokens.verify(output.token).accountId == account.id)
        }
    }
}

@Suite("hale audit verify")
struct AuditCommandTests {
    @Test func parses() throws {
        #expect(try HaleCommand.parseAsRoot(["audit", "verify"]) is AuditCommand.Verify)
        let anchor = "2:" + String(repeating: "ab", count: 32)
        let anchored = try HaleCommand.parseAsRoot(["audit", "verify", "--anchor", anchor]) as? AuditCommand.Verify
        #expect(anchored?.anchors.map(\.description) == [anchor])
        #expect(throws: (any Error).self) { try HaleCommand.parseAsRoot(["audit", "verify", "--anchor", "2:ab"]) }
    }

    @Test func anIntactReportNamesTheHeadToAnchorTo() {
        let head = AuditAnchor(sequence: 2, hash: String(repeating: "ab", count: 32))
        #expect(
            AuditCommand.Verify.report(.intact(count: 2), head: head)
                == "The audit trail is intact: 2 events. Keep its head to check later runs against: --anchor \(head)")
    }

    @Test func reportsAnIntactTrailAndTheFirstBrokenEvent() async throws {
        try await withHale { app in
            let account = try await app.hale.accounts.create(email: try AccountEmail("a@example.com"), role: "user")
            for _ in 0..<2 {
                try await app.hale.audit.record(.deviceRegistered, AuditTrail.Subject(account: account.id))
            }
            let intact = try await AuditCommand.Verify.verify(app.hale.audit)
            #expect(AuditCommand.Verify.report(intact) == "The audit trail is intact: 2 events.")
            try await app.hale.database.sql.update("audit_events").set("event_type", to: "nothing_happened")
                .where("sequence", .equal, 1).run()
            let broken = try await AuditCommand.Verify.verify(app.hale.audit)
            #expect(
                AuditCommand.Verify.report(broken)
                    == "The audit trail is broken at event 1: its content does not match its hash.")
        }
    }
}
