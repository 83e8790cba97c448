import ArgumentParser
import Foundation
import HaleServer
import HaleTesting
import Testing

@testable import hale

/// `hale accounts export`: the whole account's export, as an operator writes it to a file.
@Suite("hale accounts export")
struct AccountsExportCommandTests {
    @Test(
        "writes the account's export to a file only its owner may read, and no token", arguments: TestDatabase.available
    )
    func writesAFile(database: TestDatabase) async throws {
        try await withHale(on: database) { app in
            let (account, token) = try await makeAccount(app, email: "ops@example.com")
            _ = try await makeAccount(app, email: "other@example.com")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID()).json")
            defer { try? FileManager.default.removeItem(at: file) }
            try await AccountsCommand.Export.parse(["--email", "OPS@example.com", "--output", file.path])
                .export(using: app.hale)
            let text = try String(contentsOf: file, encoding: .utf8)
            let export = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            #expect(export?["accountId"] as? String == account.id.description)
            #expect((export?["personalAccessTokens"] as? [[String: Any]])?.first?["name"] as? String == "test")
            #expect(!text.contains(String(token.split(separator: "|")[1])))
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
    }

    @Test(arguments: [[], ["--account", "x", "--email", "a@example.com"]])
    func namesExactlyOneAccount(arguments: [String]) {
        do {
            _ = try HaleCommand.parseAsRoot(["accounts", "export"] + arguments)
            Issue.record("accounts export parsed with \(arguments)")
        } catch {
            #expect(HaleCommand.message(for: error) == "Name the account with exactly one of --account and --email.")
        }
    }

    @Test func noSuchAccountIsAUsageError() async throws {
        try await withHale { app in
            let error = await #expect(throws: ValidationError.self) {
                try await AccountsCommand.Export.parse(["--email", "nobody@example.com"]).export(using: app.hale)
            }
            #expect(error?.message == "No account has the email address nobody@example.com.")
        }
    }
}
