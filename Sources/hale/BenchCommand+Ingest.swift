import ArgumentParser
import Foundation
import HaleServer

extension BenchCommand {
    /// `hale bench ingest`.
    struct Ingest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ingest",
            abstract: "The sample sync's and the Apple Health import's write rates beside COPY of the same rows.",
            discussion: """
                Runs in this process on the configured database, which must be PostgreSQL. Each round loads one \
                batch of samples with a bare COPY into the samples table (the baseline, then removed), through the \
                sample sync as new samples (with rollups and the progress of a joined step challenge), and through \
                the sync again (all deduplicated); then imports a generated Apple Health export into a fresh \
                account. Prints each rate's median over the rounds, and the median of each round's ratio to that \
                round's COPY.
                """)

        @OptionGroup var options: GlobalOptions
        @Option(help: "Samples per batch, at most 10000.") var samples: Int = 10_000
        @Option(help: "Rounds, at most 10: each round's batch covers its own 28 days.") var rounds: Int = 3
        @Option(help: "Days of the generated export, ending yesterday, at most 360.") var importDays: Int = 360
        @Option(help: "Extra walks per day in the export (three records each), at most 79.")
        var importWalksPerDay: Int = 30
        @Flag(help: "Print JSON instead of text.") var json = false

        func validate() throws {
            guard (1...10_000).contains(samples), (1...10).contains(rounds), (1...360).contains(importDays),
                (0...79).contains(importWalksPerDay)
            else {
                throw ValidationError(
                    "--samples must be 1 to 10000, --rounds 1 to 10, --import-days 1 to 360, --import-walks-per-day 0 to 79"
                )
            }
        }

        func run() async throws {
            let result = try await options.withServices { services in
                guard services.database.isPostgres else {
                    throw ValidationError("hale bench ingest compares with COPY: set HALE_DATABASE_URL to PostgreSQL")
                }
                let benchmark = IngestBenchmark(
                    services: services, samples: samples, rounds: rounds, importDays: importDays,
                    importWalksPerDay: importWalksPerDay)
                return try await benchmark.run { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
            }
            print(json ? try CommandOutput.json(result) : Self.text(result))
        }

        static func text(_ result: IngestBenchmark.Result) -> String {
            var lines = [
                "PostgreSQL, \(result.samplesPerBatch) samples per batch, median of \(result.rounds) rounds"
                    + " (each ratio: the median of the rounds' own):",
                String(format: "  COPY of the same rows     %8.0f rows/s", result.copyRowsPerSecond),
                String(
                    format: "  sync, new samples        %8.0f samples/s  %3.0f%% of COPY",
                    result.syncNewSamplesPerSecond, 100 * result.newRatio),
                String(
                    format: "  sync, re-sent samples    %8.0f samples/s  %3.0f%% of COPY",
                    result.syncResentSamplesPerSecond, 100 * result.resentRatio),
                String(
                    format: "  sync, attested, verified %8.0f samples/s  %3.0f%% of COPY",
                    result.syncAttestedSamplesPerSecond, 100 * result.attestedRatio),
                String(
                    format: "  COPY of the import's rows %7.0f rows/s", result.importCopyRowsPerSecond),
                String(
                    format: "  import, samples stored   %8.0f samples/s  %3.0f%% of the COPY of its rows",
                    result.importSamplesStoredPerSecond, 100 * result.importRatio),
                String(
                    format: "    (%d records read, %.0f/s; %d samples stored)", result.importRecords,
                    result.importRecordsPerSecond, result.importSamplesStored),
            ]
            if let peak = result.peakResidentBytes {
                lines.append(String(format: "  peak memory of this process: %.0f MB", Double(peak) / 1_048_576))
            }
            return lines.joined(separator: "\n")
        }
    }
}
