import HaleServer
import Vapor

extension GlobalOptions {
    /// A configured application; the caller shuts it down.
    func makeApplication(_ configuration: HaleConfiguration, arguments: [String] = ["hale"]) async throws
        -> Application
    {
        Logs.bootstrap(level: configuration.logLevel)
        let app = try await Application.make(Environment(name: "production", arguments: arguments))
        app.logger.logLevel = configuration.logLevel
        do {
            try configure(app, configuration)
            if configuration.database.migrateOnStart {
                try await migrate(app)
            }
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        return app
    }
}
