import ArgumentParser
import Foundation

/// `hale bench …`: rerunnable measurements; record their output in docs/performance.md.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure Hale's hot paths. Build with -c release for meaningful figures.",
        subcommands: [WebAuthn.self])

    /// `hale bench webauthn`.
    struct WebAuthn: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "webauthn",
            abstract: "WebAuthn verifications per second on one core, beside the raw P-256 verification rate.")

        @Option(help: "Seconds to run each measurement.") var seconds: Int = 3
        @Flag(help: "Print JSON instead of a table.") var json = false

        func run() async throws {
            guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
            let rates = try await WebAuthnBenchmark(duration: .seconds(seconds)).run()
            print(json ? try Self.json(rates) : Self.table(rates))
        }

        static func table(_ rates: [WebAuthnBenchmark.Rate]) -> String {
            let raw = rates.first?.perSecond ?? 1
            var lines = ["operation                      per second   of raw P-256"]
            for rate in rates {
                let name = rate.name.padding(toLength: 30, withPad: " ", startingAt: 0)
                let perSecond = String(format: "%10.0f", rate.perSecond)
                lines.append("\(name) \(perSecond)   \(String(format: "%5.1f%%", 100 * rate.perSecond / raw))")
            }
            return lines.joined(separator: "\n")
        }

        static func json(_ rates: [WebAuthnBenchmark.Rate]) throws -> String {
            let rows = rates.map {
                ["name": $0.name, "operations": $0.operations, "seconds": $0.seconds, "perSecond": $0.perSecond]
                    as [String: Any]
            }
            return String(
                decoding: try JSONSerialization.data(withJSONObject: rows, options: [.sortedKeys]), as: UTF8.self)
        }
    }
}
