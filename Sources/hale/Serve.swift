import ArgumentParser
import HaleServer
import Vapor

/// `hale serve`.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server. Migrates the database first unless database.migrateOnStart is false.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let configuration = try options.loadConfiguration()
        let app = try await options.makeApplication(configuration, arguments: ["hale", "serve"])
        let deadline = ShutdownDeadline(grace: configuration.server.shutdownGracePeriod, logger: app.logger)
        defer { deadline.cancel() }
        do {
            try await app.hale.prepareSigningKey()
            try await app.execute()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }
}
