import ArgumentParser
import HaleServer

/// `hale keys …`.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Manage access-token signing keys and the key that seals secrets.",
        subcommands: [Rotate.self, Rewrap.self])

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

    /// `hale keys rewrap`.
    struct Rewrap: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Seal every secret in the database again under the current key-encryption key.",
            discussion: """
                To rotate the key-encryption key: make a new one (openssl rand -base64 32), set it as \
                secrets.keyEncryptionKey and the old one in secrets.previousKeyEncryptionKeys on every instance, \
                run this once, then remove the old one. Values sealed under the Apple token key \
                (socialSignIn.apple.tokenEncryptionKey) are sealed under the key-encryption key too.
                """)

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let resealed = try await options.withServices { services in
                guard let secrets = services.secretsAtRest else {
                    throw ValidationError(KeyEncryptionKeys.missing.description)
                }
                return try await secrets.rewrap()
            }
            let tables = resealed.byTable.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            print(
                "Sealed again under the current key: \(resealed.total)"
                    + (tables.isEmpty ? "" : " (\(tables.joined(separator: ", ")))"))
        }
    }
}
