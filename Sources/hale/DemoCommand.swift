import ArgumentParser
import Foundation
import HaleClient

/// `hale demo --server URL`: a new user's whole journey against a running server, with the SDK's software
/// authenticators.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a new user's whole journey against a running server, printing each step.",
        discussion: """
            Creates an account with a software passkey, registers a second passkey and signs in with it, registers \
            a device key, signs in with it and refreshes, uploads attested health data with development \
            attestation, syncs samples, reads statistics, recovers the account with a recovery code and, when the \
            server binds sessions (HALE_TOKENS_BIND_TO_ATTESTATION=attested), refreshes a session bound to the app's \
            App Attest key and shows a copied refresh token refused. It stops at the first failure, with a non-zero \
            exit status. The server must run with appAttest.developmentMode on \
            (HALE_APP_ATTEST_DEVELOPMENT_MODE=true), and its passkeys.origins must include --origin.
            """)

    @Option(help: "The running server, such as http://127.0.0.1:8080.")
    var server: String

    @Option(help: "The web origin the software passkeys claim. Default: the server's, with 127.0.0.1 as localhost.")
    var origin: String?

    func run() async throws {
        let url = try BenchCommand.serverURL(server)
        let origin = try origin.map(Self.parseOrigin) ?? Self.defaultOrigin(of: url)
        let journey = DemoJourney(client: HaleClient(baseURL: url), origin: origin)
        print("Hale demo against \(url.absoluteString), passkeys for \(origin.absoluteString)")
        guard await journey.run(report: { print($0) }) else { throw ExitCode.failure }
        print("Done: every step succeeded.")
    }

    /// The server's origin, naming loopback `localhost`: the relying party a local server has by default.
    static func defaultOrigin(of server: URL) -> URL {
        var components = URLComponents()
        components.scheme = server.scheme
        components.host = server.host == "127.0.0.1" || server.host == "::1" ? "localhost" : server.host
        components.port = server.port
        return components.url ?? server
    }

    static func parseOrigin(_ text: String) throws -> URL {
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil,
            url.path.isEmpty || url.path == "/"
        else {
            throw ValidationError("--origin must be an origin, such as https://example.com")
        }
        return url
    }
}
