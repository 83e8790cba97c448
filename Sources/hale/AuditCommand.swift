import ArgumentParser
import Foundation
import HaleServer

/// `hale audit …`.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Check the audit trail.", subcommands: [Verify.self])

    /// `hale audit verify`: recomputes every hash of the chain and reports the first broken event; checks that the
    /// chain still holds each anchor given, and prints its head as the anchor for the next run.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check every event's hash and link; exit 1 naming the first broken event.")

        @OptionGroup var options: GlobalOptions

        @Option(
            name: .customLong("anchor"),
            help:
                "SEQUENCE:HASH of an event an earlier verify or the server's log showed; the chain must still hold it.")
        var anchorTexts: [String] = []

        var anchors: [AuditAnchor] { anchorTexts.compactMap(AuditAnchor.init) }

        func validate() throws {
            if let bad = anchorTexts.first(where: { AuditAnchor($0) == nil }) {
                throw ValidationError("--anchor \(bad) is not SEQUENCE:HASH, the hash 64 lower-case hex digits")
            }
        }

        func run() async throws {
            let app = try await options.makeApplication(try options.loadConfiguration())
            let result: AuditTrail.Verification
            let head: AuditAnchor?
            do {
                result = try await Self.verify(app.hale.audit, anchors: anchors)
                head = try await app.hale.audit.head()
            } catch {
                try? await app.asyncShutdown()
                throw error
            }
            try await app.asyncShutdown()
            print(Self.report(result, head: head))
            if case .broken = result { throw ExitCode(1) }
        }

        static func verify(_ audit: AuditTrail, anchors: [AuditAnchor] = []) async throws -> AuditTrail.Verification {
            try await audit.verify(anchors: anchors) { checked in
                FileHandle.standardError.write(Data("checked \(checked) events\n".utf8))
            }
        }

        static func report(_ result: AuditTrail.Verification, head: AuditAnchor? = nil) -> String {
            switch result {
            case .intact(let count):
                "The audit trail is intact: \(count) events."
                    + (head.map { " Keep its head to check later runs against: --anchor \($0)" } ?? "")
            case .broken(let sequence, let reason): "The audit trail is broken at event \(sequence): \(reason)."
            }
        }
    }
}
