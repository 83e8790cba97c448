import ArgumentParser
import Foundation
import HaleServer

extension BenchCommand {
    /// `hale bench import-memory`.
    struct ImportMemory: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-memory",
            abstract: "The server's peak memory while it imports hostile Apple Health exports, and a real one.",
            discussion: """
                Creates an account in the configured database (the server's) that shares steps, distance and \
                workouts from Apple Health, then uploads to the running server, one after another, exports made to \
                hurt it: a million made-up types, types of 64,000 bytes, source names of 60,000 bytes, a zip of one \
                record repeated and one of spaces that inflate a thousandfold (--bomb-bytes), elements nested a \
                million deep; then a real-shaped export. After each import ends (imported, or failed with its \
                reason) it reads the server's peak resident memory from /metrics. Start the server with \
                HALE_HEALTH_IMPORTS_MAX_XML_BYTES below --bomb-bytes (1GiB for the default 2GiB), so the bombs meet \
                that limit, and with its rate limits for uploads raised. Fails when the peak passes --limit-mb.
                """)

        @OptionGroup var options: GlobalOptions
        @Option(help: "The server's base URL.") var server: String = "http://127.0.0.1:8080"
        @Option(help: "The share of each export's full size, from 0.001 to 1.") var scale: Double = 1
        @Option(help: "How far the two bombs inflate, in MiB.") var bombMib: Int = 2_048
        @Option(help: "The peak resident memory the server must stay under, in MB.") var limitMb: Double = 200
        @Option(help: "Minutes to wait for one import to end.") var patience: Int = 30
        @Option(
            help:
                "The exports to upload, comma-separated: many-types, long-types, long-source-names, record-bomb, whitespace-bomb, deep-nesting, real-shaped; default all."
        )
        var files: String = ""
        @Flag(help: "Print JSON instead of text.") var json = false

        func validate() throws {
            guard (0.001...1).contains(scale), (1...1_048_576).contains(bombMib), limitMb > 0, patience > 0 else {
                throw ValidationError(
                    "--scale must be 0.001 to 1, --bomb-mib 1 to 1048576, --limit-mb and --patience positive")
            }
            let known = Set(ImportMemoryBenchmark.fileNames)
            guard chosen.allSatisfy(known.contains) else {
                throw ValidationError(
                    "--files names exports of: \(ImportMemoryBenchmark.fileNames.joined(separator: ", "))")
            }
        }

        private var chosen: [String] {
            files.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }

        func run() async throws {
            let url = try BenchCommand.serverURL(server)
            let token = try await options.withServices { try await ImportMemoryBenchmark.seed($0) }
            let benchmark = ImportMemoryBenchmark(
                server: url, token: token, scale: scale, bombBytes: Int64(bombMib) << 20,
                patience: .seconds(patience * 60), files: chosen.isEmpty ? ImportMemoryBenchmark.fileNames : chosen)
            let (baseline, results) = try await benchmark.run {
                FileHandle.standardError.write(Data("\($0)\n".utf8))
            }
            let peak = results.compactMap(\.peakResidentBytes).max() ?? 0
            if json {
                struct Output: Encodable {
                    let baselinePeakResidentBytes: Double?
                    let files: [ImportMemoryBenchmark.Result]
                    let peakResidentBytes: Double
                    let limitBytes: Double
                }
                let output = Output(
                    baselinePeakResidentBytes: baseline?.peakResidentBytes, files: results, peakResidentBytes: peak,
                    limitBytes: limitMb * 1_000_000)
                print(try CommandOutput.json(output))
            } else {
                if let baseline {
                    print(String(format: "server before the uploads: peak %.1f MB", baseline.peakResidentBytes / 1e6))
                }
                for result in results { print(ImportMemoryBenchmark.line(result)) }
                print(String(format: "server peak over all of them: %.1f MB (limit %.0f MB)", peak / 1e6, limitMb))
            }
            guard peak > 0 else { throw ValidationError("the server exports no peak memory at /metrics") }
            guard peak <= limitMb * 1_000_000 else {
                throw ValidationError(String(format: "the server's peak, %.1f MB, passed %.0f MB", peak / 1e6, limitMb))
            }
        }
    }
}
