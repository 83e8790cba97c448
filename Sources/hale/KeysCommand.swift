import ArgumentParser
import HaleServer

/// `hale keys …`.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Manage access-token signing keys.", subcommands: [Rotate.self])

    /// `hale keys rotate`.
    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the signing key now. The old key keeps verifying until its tokens expire.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let app = try await options.makeApplication(try options.loadConfiguration())
            do {
                try await app.hale.rotateSigningKey()
            } catch {
                try? await app.asyncShutdown()
                throw error
            }
            try await app.asyncShutdown()
            print("Signing key rotated.")
        }
    }
}
