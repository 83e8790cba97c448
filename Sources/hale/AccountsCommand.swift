import ArgumentParser
import Foundation
import HaleServer

/// `hale accounts …`.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "Manage accounts.", subcommands: [Create.self])

    /// `hale accounts create --email E [--role R]`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account and print its id and a personal access token as JSON.")

        @OptionGroup var options: GlobalOptions
        @Option(help: "The account's email address.") var email: String
        @Option(help: "The account's role.") var role: String = "user"

        /// What the command prints.
        struct Output: Codable, Equatable {
            let accountId: String
            let token: String
        }

        func run() async throws {
            let app = try await options.makeApplication(try options.loadConfiguration())
            do {
                let output = try await create(using: app.hale)
                try await app.asyncShutdown()
                print(String(decoding: try JSONEncoder().encode(output), as: UTF8.self))
            } catch let error as HaleError {
                try? await app.asyncShutdown()
                throw ValidationError(error.message)
            } catch {
                try? await app.asyncShutdown()
                throw error
            }
        }

        func create(using services: HaleServices) async throws -> Output {
            let account = try await services.accounts.create(email: email, role: role)
            let token = try await services.personalAccessTokens.create(for: account.id, name: "hale accounts create")
            return Output(accountId: account.id.description, token: token.token)
        }
    }
}
