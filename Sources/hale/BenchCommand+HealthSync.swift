import ArgumentParser
import Foundation
import HaleServer

extension BenchCommand {
    /// `hale bench health-sync`.
    struct HealthSync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "health-sync",
            abstract: "Time of POST /api/v1/health/sync with full batches: insert, resend, update, delete.",
            discussion: """
                Creates a new account in the configured database (the server's) that consents to steps, distance, \
                calories and active minutes from Apple Health, then posts batches to the running server, one at a \
                time. Each round inserts a batch of new samples, sends it again (all deduplicated), changes every \
                sample with a newer version (all updated), and deletes them all. Reports each phase's median at \
                the client and the server's mean from its /metrics, and the server's resident and peak memory.
                """)

        @OptionGroup var options: GlobalOptions
        @Option(help: "The server's base URL.") var server: String = "http://127.0.0.1:8080"
        @Option(help: "Samples per batch, at most 10000.") var samples: Int = 10_000
        @Option(help: "Rounds of the four phases.") var rounds: Int = 3
        @Flag(help: "Print JSON instead of text.") var json = false

        func validate() throws {
            guard (1...10_000).contains(samples), (1...1_000).contains(rounds) else {
                throw ValidationError("--samples must be 1 to 10000 and --rounds 1 to 1000")
            }
        }

        func run() async throws {
            let url = try BenchCommand.serverURL(server)
            let token = try await options.withServices { try await HealthSyncBenchmark.seed($0) }
            let benchmark = HealthSyncBenchmark(server: url, token: token, samples: samples, rounds: rounds)
            let (results, memory) = try await benchmark.run { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
            print(json ? try Self.json(results, memory) : Self.text(results, memory))
        }

        static func text(_ results: [HealthSyncBenchmark.Result], _ memory: ServerMemory?) -> String {
            var lines = results.map { result in
                var line = String(
                    format: "%@: %d samples per batch, p50 %.2f s at the client (%.0f samples/s, %d batches)",
                    result.phase.rawValue, result.samplesPerBatch, result.p50Seconds, result.samplesPerSecond,
                    result.batches)
                if let mean = result.serverMeanSeconds { line += String(format: "; server mean %.2f s", mean) }
                return line
            }
            if let memory {
                lines.append(
                    String(
                        format: "server memory: %.0f MB resident, %.0f MB at its peak",
                        memory.residentBytes / 1_048_576, memory.peakResidentBytes / 1_048_576))
            }
            return lines.joined(separator: "\n")
        }

        static func json(_ results: [HealthSyncBenchmark.Result], _ memory: ServerMemory?) throws -> String {
            struct Output: Encodable {
                let phases: [HealthSyncBenchmark.Result]
                let serverResidentBytes: Double?
                let serverPeakResidentBytes: Double?
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let output = Output(
                phases: results, serverResidentBytes: memory?.residentBytes,
                serverPeakResidentBytes: memory?.peakResidentBytes)
            return String(decoding: try encoder.encode(output), as: UTF8.self)
        }
    }
}
