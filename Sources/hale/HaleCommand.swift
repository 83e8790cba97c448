import ArgumentParser
import NIOCore
import NIOPosix

/// `hale`: run and operate a Hale server.
@main
struct HaleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hale",
        abstract: "Strong sign-in and attested health data for mobile apps.",
        discussion: """
            Configuration comes from --config FILE (YAML) and from HALE_* environment variables, which override \
            the file: database.url is HALE_DATABASE_URL, server.port is HALE_SERVER_PORT. With no configuration, \
            Hale listens on 127.0.0.1:8080 and keeps its data in ./hale.sqlite.
            """,
        subcommands: [
            Serve.self, Migrate.self, AccountsCommand.self, TokensCommand.self, AdminKeysCommand.self, KeysCommand.self,
            AuditCommand.self, VerifyCommand.self, BenchCommand.self, DemoCommand.self, ImportCommand.self,
            SupabaseCommand.self, WebhooksCommand.self, ConfigCommand.self,
        ]
    )

    /// Runs Swift concurrency's jobs on NIO's event loops before anything else runs, so that an async route handler
    /// and the socket and database I/O it awaits share threads instead of hopping between two pools.
    static func main() async {
        MallocArenas.limit()
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
