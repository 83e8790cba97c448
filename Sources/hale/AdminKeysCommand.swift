import ArgumentParser
import Foundation
import HaleServer

/// `hale admin-keys …`: the keys the app's own backend calls the admin API with.
struct AdminKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin-keys", abstract: "Manage admin API keys (for POST /api/v1/admin/confirmations).",
        subcommands: [Create.self, List.self, Revoke.self])

    /// `hale admin-keys create --name N`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a key and print it once, as JSON: {id, name, key}. Only its hash is stored.")

        @OptionGroup var options: GlobalOptions
        @Option(help: "What the key is for, such as the backend that uses it.") var name: String

        struct Output: Codable, Equatable {
            let id: Int64
            let name: String
            let key: String
        }

        func run() async throws {
            let created = try await options.withServices { try await $0.adminKeys.create(name: name) }
            print(try CommandOutput.json(Output(id: created.id, name: name, key: created.key)))
        }
    }

    /// `hale admin-keys list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List keys as JSON: id, name, when created, last used and revoked; never the keys.")

        @OptionGroup var options: GlobalOptions

        struct Row: Codable, Equatable {
            let id: Int64
            let name: String
            let createdAt: Date
            let lastUsedAt: Date?
            let revokedAt: Date?
        }

        func run() async throws {
            let keys = try await options.withServices { try await $0.adminKeys.list() }
            let rows = keys.map {
                Row(
                    id: $0.id ?? 0, name: $0.name, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt,
                    revokedAt: $0.revokedAt)
            }
            print(try CommandOutput.json(rows))
        }
    }

    /// `hale admin-keys revoke ID`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key; it stops working at once.")

        @OptionGroup var options: GlobalOptions
        @Argument(help: "The key's id, as create and list print it.") var id: Int64

        func run() async throws {
            let revoked = try await options.withServices { try await $0.adminKeys.revoke(id) }
            guard revoked else { throw ValidationError("No unrevoked admin key has id \(id).") }
            print(try CommandOutput.json(["revoked": id]))
        }
    }
}
