import ArgumentParser
import Foundation
import HaleServer

/// `hale audit …`.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Check the audit trail.", subcommands: [Verify.self])

    /// `hale audit verify`: recomputes every hash of the chain and reports the first broken event.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check every event's hash and link; exit 1 naming the first broken event.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let app = try await options.makeApplication(try options.loadConfiguration())
            let result: AuditTrail.Verification
            do {
                result = try await Self.verify(app.hale.audit)
            } catch {
                try? await app.asyncShutdown()
                throw error
            }
            try await app.asyncShutdown()
            print(Self.report(result))
            if case .broken = result { throw ExitCode(1) }
        }

        static func verify(_ audit: AuditTrail) async throws -> AuditTrail.Verification {
            try await audit.verify { checked in
                FileHandle.standardError.write(Data("checked \(checked) events\n".utf8))
            }
        }

        static func report(_ result: AuditTrail.Verification) -> String {
            switch result {
            case .intact(let count): "The audit trail is intact: \(count) events."
            case .broken(let sequence, let reason): "The audit trail is broken at event \(sequence): \(reason)."
            }
        }
    }
}
