import ArgumentParser
import Foundation
import HaleServer

/// `hale config …`.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Hale's configuration keys.", subcommands: [Reference.self])

    /// `hale config reference`.
    struct Reference: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the configuration reference (docs/configuration.md) in Markdown.",
            discussion: """
                Every key with its environment variable, kind, default and meaning, made from the keys Hale knows. \
                The tests fail while docs/configuration.md differs from it: after changing a key, run \
                `swift run hale config reference --output docs/configuration.md`.
                """)

        @Option(help: "Write the reference to this file instead of standard output.")
        var output: String?

        func run() throws {
            let markdown = ConfigurationReference.markdown()
            guard let output else {
                print(markdown, terminator: "")
                return
            }
            try Data(markdown.utf8).write(to: URL(fileURLWithPath: output))
        }
    }
}
