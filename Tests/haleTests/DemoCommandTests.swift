import Foundation
import HaleTesting
import Testing

@testable import hale

/// `hale demo` against `hale serve`, both as processes, as the README's tour runs them.
@Suite("hale demo", .serialized)
struct DemoCommandTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: TestDatabase.available)
    func everyStepSucceedsWithDevelopmentAttestation(database: TestDatabase) async throws {
        let (status, output) = try await demo(on: database, developmentMode: true)
        #expect(status == 0, "\(output)")
        for step in 1...8 { #expect(output.contains("[\(step)/8]")) }
        #expect(output.components(separatedBy: "      ok: ").count == 9)
        #expect(output.contains("a copy of the refresh token without the key was refused"))
        #expect(output.contains("10 codes made; one recovered the account") && output.contains("9 codes left"))
        #expect(output.contains("12 samples inserted; sent again, 12 recognised as already stored"))
        #expect(output.hasSuffix("Done: every step succeeded.\n"))
    }

    @Test func itStopsAtTheFirstFailure() async throws {
        let (status, output) = try await demo(on: .sqlite, developmentMode: false)
        #expect(status != 0)
        #expect(output.contains("[4/8]") && output.contains("FAILED: HTTP 404"))
        #expect(!output.contains("[5/8]") && !output.contains("Done"))
    }

    @Test func anUnreachableServerFailsTheFirstStep() async throws {
        let hale = try HaleExecutable(packageRoot: root)
        let port = try freeLoopbackPort()
        let (status, output) = try await hale.run(["demo", "--server", "http://127.0.0.1:\(port)"], environment: [:])
        #expect(status != 0)
        #expect(output.contains("[1/8]") && output.contains("FAILED: no answer from the server"))
    }

    @Test(arguments: ["ftp://example.com", "not a url"])
    func aServerThatIsNotHTTPIsAUsageError(server: String) async throws {
        let (status, output) = try await HaleExecutable(packageRoot: root).run(
            ["demo", "--server", server], environment: [:])
        #expect(status == 64 && output.isEmpty, "a usage error, on standard error only")
    }

    @Test func passkeysDefaultToTheServersOriginWithLoopbackAsLocalhost() throws {
        let local = DemoCommand.defaultOrigin(of: try #require(URL(string: "http://127.0.0.1:8080")))
        #expect(local.absoluteString == "http://localhost:8080")
        let remote = DemoCommand.defaultOrigin(of: try #require(URL(string: "https://auth.example.com/base")))
        #expect(remote.absoluteString == "https://auth.example.com")
        #expect(throws: (any Error).self) { try DemoCommand.parseOrigin("https://example.com/path") }
    }

    /// Runs `hale demo` against a fresh server; the server's passkey origin stays its default, which the demo is told.
    private func demo(on database: TestDatabase, developmentMode: Bool) async throws -> (Int32, String) {
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await database.provision()
        let server = try await hale.serve(environment: [
            "HALE_DATABASE_URL": url, "HALE_APP_ATTEST_DEVELOPMENT_MODE": developmentMode ? "true" : "false",
            "HALE_TOKENS_BIND_TO_ATTESTATION": "attested",
        ])
        let result = try await hale.run(
            ["demo", "--server", server.baseURL.absoluteString, "--origin", "http://localhost:8080"], environment: [:])
        await server.stop()
        await dispose()
        return result
    }
}
