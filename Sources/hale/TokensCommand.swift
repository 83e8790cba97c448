import ArgumentParser
import Foundation
import HaleServer

/// `hale tokens …`: an account's personal access tokens, as an operator sees them.
struct TokensCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens", abstract: "List and revoke accounts' personal access tokens.",
        subcommands: [List.self, Revoke.self])

    /// `hale tokens list --account ID | --email E`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                List an account's tokens as JSON, newest first: id, name, when created, last used (written within \
                a minute of the use), expires and revoked, and the social sign-in that issued it; never the tokens.
                """)

        @OptionGroup var options: GlobalOptions
        @OptionGroup var selection: AccountSelection

        struct Row: Codable, Equatable {
            let id: Int64
            let name: String
            let createdAt: Date
            let lastUsedAt: Date?
            let expiresAt: Date?
            let revokedAt: Date?
            let signInMethod: String?
        }

        func run() async throws {
            let rows = try await options.withServices { try await list(using: $0) }
            print(try CommandOutput.json(rows))
        }

        func list(using services: HaleServices) async throws -> [Row] {
            let tokens = try await services.personalAccessTokens.all(of: try await selection.accountID(using: services))
            return tokens.map {
                Row(
                    id: $0.id, name: $0.name, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt,
                    expiresAt: $0.expiresAt, revokedAt: $0.revokedAt, signInMethod: $0.signInMethod)
            }
        }
    }

    /// `hale tokens revoke ID`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a token; it stops working at once, and the account's audit trail records it.")

        @OptionGroup var options: GlobalOptions
        @Argument(help: "The token's id: the number before the | in the token, as list prints it.") var id: Int64

        func run() async throws {
            try await options.withServices { try await revoke(using: $0) }
            print(try CommandOutput.json(["revoked": id]))
        }

        func revoke(using services: HaleServices) async throws {
            guard let token = try await services.personalAccessTokens.find(id),
                try await services.personalAccessTokens.revoke(id, of: token.accountId, by: .operator)
            else {
                throw ValidationError("No unrevoked personal access token has id \(id).")
            }
        }
    }
}
