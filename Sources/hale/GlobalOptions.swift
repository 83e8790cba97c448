import ArgumentParser
import Foundation
import HaleServer

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "A YAML configuration file. HALE_* environment variables override its keys.")
    var config: String?

    /// The configuration from the file and the environment.
    func loadConfiguration(environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> HaleConfiguration
    {
        do {
            return try HaleConfiguration(try ConfigValues.load(file: config, environment: environment))
        } catch let error as ConfigError {
            throw ValidationError(error.description)
        }
    }
}
