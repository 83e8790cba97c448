import ArgumentParser
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

    /// Runs `body` on the configured application's services and shuts the application down, whatever happens. A
    /// `HaleError` or `InvalidInput` (an argument the services refused) becomes a `ValidationError`, printed as a
    /// usage error.
    func withServices<T>(_ body: (HaleServices) async throws -> T) async throws -> T {
        let app = try await makeApplication(try loadConfiguration())
        do {
            let result = try await body(app.hale)
            try await app.asyncShutdown()
            return result
        } catch let error as HaleError {
            try? await app.asyncShutdown()
            throw ValidationError(error.message)
        } catch let error as InvalidInput {
            try? await app.asyncShutdown()
            throw ValidationError(error.message)
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }
}
