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
        do {
            try PrivateDirectory.prepare(configuration.server.dataDirectory, setting: "server.dataDirectory")
            try PrivateDirectory.prepare(configuration.health.importsDirectory, setting: "health.imports.directory")
        } catch let error as ConfigError {
            throw ValidationError(error.description)
        }
        let traces = try TraceExport.start(configuration.tracing)
        let app = try await options.makeApplication(configuration, arguments: ["hale", "serve"])
        let deadline = ShutdownDeadline(grace: configuration.server.shutdownGracePeriod, logger: app.logger)
        defer { deadline.cancel() }
        do {
            guard let secrets = app.hale.secretsAtRest else {
                throw ValidationError(KeyEncryptionKeys.missing.description)
            }
            let sealed = try await secrets.sealLegacy()
            if sealed.total > 0 {
                app.logger.notice(
                    "sealed secrets an earlier version kept in the clear; run VACUUM so no free page keeps them",
                    metadata: ["count": "\(sealed.total)"])
            }
            if sealed.byTable["signing_keys", default: 0] > 0 {
                // Backups made before carry those keys in the clear: a new key signs from now on, and the old ones
                // stop verifying once their last token has expired.
                try await app.hale.rotateSigningKey()
                app.logger.notice("replaced the signing key an earlier version kept in the clear")
            }
            if configuration.server.publicURL == nil {
                app.logger.warning(
                    """
                    server.publicURL is not set: the account page's cookies are Secure, which Safari does not keep \
                    from http://localhost; set it to Hale's https URL, or to http://localhost:PORT for development
                    """)
            }
            try await app.hale.prepareSigningKey()
            try await app.execute()
        } catch {
            try? await app.asyncShutdown()
            await traces?.stop()
            throw error
        }
        try await app.asyncShutdown()
        await traces?.stop()
    }
}
