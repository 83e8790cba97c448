import ArgumentParser
import Foundation
import HaleServer

/// `hale bench …`: rerunnable measurements; record their output as a dated file in docs/records/ (docs/performance.md says how).
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure Hale's hot paths. Build with -c release for meaningful figures.",
        subcommands: [
            WebAuthn.self, DeviceLogin.self, HealthStats.self, HealthSync.self, Ingest.self, ImportMemory.self,
            BodyMemory.self, ChallengeVerification.self,
        ])

    /// The running server a benchmark measures, from `--server`.
    static func serverURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
            throw ValidationError("--server must be an http or https URL")
        }
        return url
    }

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

    /// `hale bench device-login`.
    struct DeviceLogin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "device-login",
            abstract: "Seed 002 sign-ins (challenge, verify, refresh) per second against a running server.",
            discussion: """
                Create a token with `hale accounts create --email bench@example.com`, and start the server with \
                rate limits raised, such as HALE_RATE_LIMITS_DEVICE_KEYS_PER_IP=10000000/1m, \
                HALE_RATE_LIMITS_DEVICE_KEYS_PER_FINGERPRINT=10000000/1m and HALE_RATE_LIMITS_REFRESH_PER_IP=10000000/1m. \
                Then it measures the refresh alone, as a bearer session and, when the server binds sessions \
                (HALE_TOKENS_BIND_TO_ATTESTATION=attested with HALE_APP_ATTEST_DEVELOPMENT_MODE=true), bound to a \
                development App Attest key: the ratio is what binding costs a refresh.
                """)

        @Option(help: "The server's base URL.") var server: String = "http://127.0.0.1:8080"
        @Option(help: "A personal access token of the account that registers the benchmark's devices.") var token:
            String
        @Option(help: "Devices signing in at once.") var concurrency: Int = 16
        @Option(help: "Seconds to run.") var seconds: Int = 10
        @Flag(help: "Print JSON instead of text.") var json = false

        func run() async throws {
            guard seconds > 0, (1...1024).contains(concurrency) else {
                throw ValidationError("--seconds must be positive and --concurrency between 1 and 1024")
            }
            let url = try BenchCommand.serverURL(server)
            let benchmark = DeviceLoginBenchmark(
                server: url, token: token, concurrency: concurrency, duration: .seconds(seconds))
            let result = try await benchmark.run { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                print(String(decoding: try encoder.encode(result), as: UTF8.self))
            } else {
                print(
                    String(
                        format:
                            "%d device logins in %.1f s: %.0f per second; p50 %.1f ms, p99 %.1f ms (concurrency %d)",
                        result.logins, result.seconds, result.loginsPerSecond, result.p50Milliseconds,
                        result.p99Milliseconds, result.concurrency))
                if let refresh = result.refresh { print(Self.describe(refresh)) }
            }
        }

        static func describe(_ refresh: RefreshBenchmark.Result) -> String {
            let bearer = String(
                format: "refresh alone (concurrency %d): bearer %.0f per second, p50 %.1f ms", refresh.concurrency,
                refresh.bearerRefreshesPerSecond, refresh.bearerP50Milliseconds)
            guard let bound = refresh.boundRefreshesPerSecond, let p50 = refresh.boundP50Milliseconds,
                let ratio = refresh.boundRatio
            else {
                return bearer + "; bound not measured (tokens.bindToAttestation is off)"
            }
            return bearer + String(format: "; bound %.0f per second, p50 %.1f ms: %.2f of bearer", bound, p50, ratio)
        }
    }

    /// `hale bench health-stats`.
    struct HealthStats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "health-stats",
            abstract: "Latency of GET /health/statistics for an account with five years of data from four sources.",
            discussion: """
                Seeds a new account in the configured database (the server's), then asks the running server for \
                the whole range by day, ISO week and month, one request at a time. Latency is measured at the \
                client, over loopback, and at the server from the request-time histogram it exports at /metrics: \
                its mean, and the share of requests answered in 5 ms or less (over half means a median under 5 ms).
                """)

        @OptionGroup var options: GlobalOptions
        @Option(help: "The server's base URL.") var server: String = "http://127.0.0.1:8080"
        @Option(help: "Requests per period, after 20 to warm up.") var requests: Int = 200
        @Option(help: "Measure only this period: day, week or month.") var period: String?
        @Flag(help: "Print JSON instead of text.") var json = false

        func run() async throws {
            guard (1...100_000).contains(requests) else { throw ValidationError("--requests must be 1 to 100000") }
            let periods = try period.map { [try Self.period($0)] } ?? HealthStatistics.Period.allCases
            let url = try BenchCommand.serverURL(server)
            let seeded = try await options.withServices { try await HealthStatsBenchmark.seed($0) }
            let results = try await HealthStatsBenchmark(
                server: url, token: seeded.token, start: seeded.start, end: seeded.end, requests: requests
            ).run(periods)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                print(String(decoding: try encoder.encode(results), as: UTF8.self))
            } else {
                print("\(seeded.start) to \(seeded.end), 4 sources:")
                for result in results {
                    var line = String(
                        format: "  by %@: at the client p50 %.2f ms, p99 %.2f ms (%d requests)", result.period,
                        result.p50Milliseconds, result.p99Milliseconds, result.requests)
                    if let mean = result.serverMeanMilliseconds, let share = result.serverShareAtMostFiveMilliseconds {
                        line += String(
                            format: "; at the server mean %.2f ms, %.0f%% in 5 ms or less", mean, share * 100)
                    }
                    print(line)
                }
            }
        }

        private static func period(_ name: String) throws -> HealthStatistics.Period {
            guard let period = HealthStatistics.Period(rawValue: name) else {
                throw ValidationError("--period must be day, week or month")
            }
            return period
        }
    }
}
