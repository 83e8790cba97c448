import ArgumentParser

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
            Serve.self, Migrate.self, AccountsCommand.self, KeysCommand.self, AuditCommand.self, VerifyCommand.self,
            BenchCommand.self,
        ]
    )
}
