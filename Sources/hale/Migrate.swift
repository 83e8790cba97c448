import ArgumentParser
import HaleServer

/// `hale migrate`.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create or update the database schema, then exit.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        var configuration = try options.loadConfiguration()
        configuration.database.migrateOnStart = true
        let app = try await options.makeApplication(configuration)
        try await app.asyncShutdown()
        print("Database is up to date.")
    }
}
