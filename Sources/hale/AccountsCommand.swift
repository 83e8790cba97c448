import ArgumentParser
import Foundation
import HaleServer

/// `hale accounts …`.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "Manage accounts.", subcommands: [Create.self, Export.self, Recover.self])

    /// `hale accounts create --email E [--role R] [--expires-in DURATION]`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account and print its id and a personal access token as JSON.")

        @OptionGroup var options: GlobalOptions
        @Option(help: "The account's email address.") var email: String
        @Option(help: "The account's role.") var role: String = "user"
        @Option(
            help: """
                How long the token is valid, such as 12h or 30d (ms, s, m, h or d; at most 3650d). Without it, \
                the token lasts until revoked.
                """,
            transform: Create.lifetime)
        var expiresIn: Duration?

        static func lifetime(_ text: String) throws -> Duration {
            guard let duration = Duration(configurationText: text), duration > .zero else {
                throw ValidationError("--expires-in must be a positive duration such as 12h or 30d, not \"\(text)\"")
            }
            return duration
        }

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
            let account = try await services.accounts.create(email: try AccountEmail(email), role: role)
            let token = try await services.personalAccessTokens.create(
                for: account.id, name: "hale accounts create", expiresIn: expiresIn)
            return Output(accountId: account.id.description, token: token.token)
        }
    }

    /// `hale accounts export --account ID | --email E [--output FILE]`.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Write everything Hale holds about an account (GDPR art. 20) as one JSON document, the same as \
                GET /api/v1/account/export: never tokens or their hashes, secrets, private keys or push tokens.
                """)

        @OptionGroup var options: GlobalOptions
        @OptionGroup var selection: AccountSelection
        @Option(
            help: """
                The file to write, created readable by its owner only (an existing file is replaced). Without it, \
                standard output.
                """)
        var output: String?

        func run() async throws {
            try await options.withServices { try await export(using: $0) }
        }

        func export(using services: HaleServices) async throws {
            let account = try await selection.accountID(using: services)
            let handle = try output.map(Self.create) ?? FileHandle.standardOutput
            defer { if output != nil { try? handle.close() } }
            _ = try await AccountExportDocument(services).write(of: account) { try handle.write(contentsOf: $0) }
        }

        /// An empty file at `path` that only its owner may read: the export is personal data.
        static func create(_ path: String) throws -> FileHandle {
            let manager = FileManager.default
            guard manager.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw ValidationError("Cannot write \(path).")
            }
            try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        }
    }

    /// `hale accounts recover --account ID | --email E`.
    struct Recover: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Start a recovery of an account for a person who lost every way in, as recovery by email does: it \
                waits recovery.emailDelay while the account's devices and addresses are told and may cancel it, \
                then opens a recovery session that enrols one passkey or device key. Prints the recovery's id and \
                claim token as JSON, to hand to the person over a channel you trust; the claim token is shown once.
                """)

        @OptionGroup var options: GlobalOptions
        @OptionGroup var selection: AccountSelection

        /// What the command prints.
        struct Output: Codable, Equatable {
            let recoveryId: String
            let claimToken: String
            let readyAt: String
            let claimWith: String
        }

        func run() async throws {
            let output = try await options.withServices { try await start(using: $0) }
            print(String(decoding: try JSONEncoder().encode(output), as: UTF8.self))
        }

        func start(using services: HaleServices) async throws -> Output {
            let account = try await selection.accountID(using: services)
            let (recovery, token) = try await services.accountRecoveries.start(
                for: account, method: "operator", ipRange: nil)
            return Output(
                recoveryId: recovery.id.uuidString.lowercased(), claimToken: token,
                readyAt: recovery.readyAt.formatted(.iso8601), claimWith: "POST /api/v1/auth/recovery/claim")
        }
    }
}
