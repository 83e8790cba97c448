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
            let output = try await options.withServices { try await create(using: $0) }
            print(String(decoding: try JSONEncoder().encode(output), as: UTF8.self))
        }

        func create(using services: HaleServices) async throws -> Output {
            let account = try await services.accounts.create(email: email, role: role)
            let token = try await services.personalAccessTokens.create(for: account.id, name: "hale accounts create")
            return Output(accountId: account.id.description, token: token.token)
        }
    }
}
