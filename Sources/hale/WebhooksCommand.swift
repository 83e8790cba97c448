import ArgumentParser
import Foundation
import HaleServer

/// `hale webhooks …`: the app backend's endpoints for Hale's events, and what was delivered to them.
struct WebhooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhooks",
        abstract: "Manage the endpoints that receive Hale's events (Standard Webhooks), and their deliveries.",
        subcommands: [Add.self, List.self, Remove.self, RotateSecret.self, Test.self, Deliveries.self, Replay.self])

    /// `hale webhooks add --url U --events a,b`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an endpoint; print it and its whsec_ secret once, as JSON: {endpoint, secret}.",
            discussion: "Event types: \(WebhookEventType.subscribable.map(\.rawValue).joined(separator: ", ")); or *.")

        @OptionGroup var options: GlobalOptions
        @Option(help: "Where events are posted: https, or http on loopback.") var url: String
        @Option(help: "The event types it takes, comma-separated, or * for every one.") var events: String
        @Option(help: "What it is for.") var description: String = ""

        struct Output: Encodable {
            let endpoint: WebhookEndpoint
            let secret: String
        }

        func run() async throws {
            let types = events.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let (endpoint, secret) = try await options.withServices {
                try await $0.webhooks.add(url: url, eventTypes: types, description: description)
            }
            print(try CommandOutput.json(Output(endpoint: endpoint, secret: secret)))
        }
    }

    /// `hale webhooks list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the endpoints as JSON; never their secrets.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            print(try CommandOutput.json(try await options.withServices { try await $0.webhooks.endpoints() }))
        }
    }

    /// `hale webhooks remove ID`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove an endpoint with its deliveries; nothing more is sent to it.")

        @OptionGroup var options: GlobalOptions
        @Argument(help: "The endpoint's id.") var id: String

        func run() async throws {
            let endpoint = try WebhooksCommand.uuid(id)
            guard try await options.withServices({ try await $0.webhooks.remove(endpoint) }) else {
                throw ValidationError("No endpoint has id \(id).")
            }
            print(try CommandOutput.json(["removed": endpoint.uuidString.lowercased()]))
        }
    }

    /// `hale webhooks rotate-secret ID`.
    struct RotateSecret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-secret",
            abstract: "Give an endpoint a new secret, printed once; the old one still signs for webhooks.secretOverlap."
        )

        @OptionGroup var options: GlobalOptions
        @Argument(help: "The endpoint's id.") var id: String

        func run() async throws {
            let endpoint = try WebhooksCommand.uuid(id)
            guard let rotated = try await options.withServices({ try await $0.webhooks.rotateSecret(of: endpoint) })
            else { throw ValidationError("No endpoint has id \(id).") }
            struct Output: Encodable {
                let secret: String
                let previousSecretUntil: Date
            }
            print(
                try CommandOutput.json(Output(secret: rotated.secret, previousSecretUntil: rotated.previousSecretUntil))
            )
        }
    }

    /// `hale webhooks test ID`.
    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a webhook.test event to one endpoint (a running server delivers it); print its message id.")

        @OptionGroup var options: GlobalOptions
        @Argument(help: "The endpoint's id.") var id: String

        func run() async throws {
            let endpoint = try WebhooksCommand.uuid(id)
            guard let message = try await options.withServices({ try await $0.webhooks.test(endpoint) }) else {
                throw ValidationError("No endpoint has id \(id).")
            }
            print(try CommandOutput.json(["messageId": message]))
        }
    }

    /// `hale webhooks deliveries [--endpoint ID] [--status S] [--limit N]`.
    struct Deliveries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the newest deliveries as JSON, each with every attempt: when, the answer, how long.")

        @OptionGroup var options: GlobalOptions
        @Option(help: "Only this endpoint's.") var endpoint: String?
        @Option(help: "Only those pending, sending, delivered or failed.") var status: String?
        @Option(help: "At most this many, 1 to 500.") var limit: Int = 50

        func run() async throws {
            let id = try endpoint.map(WebhooksCommand.uuid)
            let found = try await options.withServices { services in
                // Parsed here, where withServices reports a refused value as a usage error.
                let filter = try status.map { text in
                    try InvalidInput.parse(text, as: WebhookDeliveryStatus.self, field: "status")
                }
                return try await services.webhooks.deliveries(endpoint: id, status: filter, limit: limit)
            }
            print(try CommandOutput.json(found))
        }
    }

    /// `hale webhooks replay ID`.
    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a delivered or failed delivery again, from the first wait of the retry schedule.")

        @OptionGroup var options: GlobalOptions
        @Argument(help: "The delivery's id, as deliveries prints it.") var id: Int64

        func run() async throws {
            guard try await options.withServices({ try await $0.webhooks.replay(id) }) else {
                throw ValidationError("No delivered or failed delivery has id \(id).")
            }
            print(try CommandOutput.json(["replayed": id]))
        }
    }

    static func uuid(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw ValidationError("\(text) is not an endpoint id (a UUID)") }
        return id
    }
}
