import ArgumentParser
import AsyncHTTPClient
import Foundation
import HaleServer
import NIOCore
import StrictJSON

extension BenchCommand {
    /// `hale bench body-memory`.
    struct BodyMemory: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "body-memory",
            abstract: "The server's peak memory after JSON bodies made to hurt it, beside a real sync's.",
            discussion: """
                Creates an account in the configured database (the server's) that shares the four sync types, then \
                posts to the running server's POST /api/v1/health/sync, one after another: a real batch of 10,000 \
                samples, a body of --mib MiB of one-digit array items, and a body at the parser's bound of \
                items and members. After each it reads the server's peak resident memory from /metrics. Start the \
                server with its per-account sync rate limit raised. Fails when the peak passes --limit-mb.
                """)

        @OptionGroup var options: GlobalOptions
        @Option(help: "The server's base URL.") var server: String = "http://127.0.0.1:8080"
        @Option(help: "The size of the body of one-digit items, in MiB, at most 16.") var mib: Int = 16
        @Option(help: "The peak resident memory the server must stay under, in MB.") var limitMb: Double = 200

        func validate() throws {
            guard (1...16).contains(mib), limitMb > 0 else {
                throw ValidationError("--mib must be 1 to 16 and --limit-mb positive")
            }
        }

        func run() async throws {
            let url = try BenchCommand.serverURL(server)
            let token = try await options.withServices { try await HealthSyncBenchmark.seed($0) }
            let bodies = [
                (
                    "a real batch of 10,000 samples",
                    HealthSyncBenchmark.body(.insert, round: 0, count: 10_000, today: Date())
                ),
                ("\(mib) MiB of one-digit items", Self.items(bytes: mib << 20)),
                (
                    "\(JSONParser.defaultMaximumElements) items, the most a body may hold",
                    Self.items(count: JSONParser.defaultMaximumElements - 2)
                ),
            ]
            var peak = 0.0
            try await withBenchmarkClient { client in
                if let before = await ServerMemory.read(from: url, with: client) {
                    print(String(format: "server before the bodies: peak %.1f MB", before.peakResidentBytes / 1e6))
                }
                for (name, body) in bodies {
                    let status = try await Self.post(body, to: url, token: token, with: client)
                    let memory = await ServerMemory.read(from: url, with: client)
                    peak = max(peak, memory?.peakResidentBytes ?? 0)
                    print(
                        String(
                            format: "%@ (%.1f MiB): %d, server peak %.1f MB", name, Double(body.utf8.count) / 1_048_576,
                            status, (memory?.peakResidentBytes ?? 0) / 1e6))
                }
            }
            guard peak > 0 else { throw ValidationError("the server exports no peak memory at /metrics") }
            guard peak <= limitMb * 1_000_000 else {
                throw ValidationError(String(format: "the server's peak, %.1f MB, passed %.0f MB", peak / 1e6, limitMb))
            }
        }

        /// A sync body whose samples are `0`s, `bytes` long.
        static func items(bytes: Int) -> String {
            items(count: (bytes - 60) / 2)
        }

        /// A sync body whose samples are `count` `0`s.
        static func items(count: Int) -> String {
            #"{"provider":"healthkit","samples":["# + String(repeating: "0,", count: count - 1) + "0]}"
        }

        private static func post(_ body: String, to server: URL, token: String, with client: HTTPClient) async throws
            -> UInt
        {
            var request = HTTPClientRequest(url: server.appendingPathComponent("api/v1/health/sync").absoluteString)
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
            let response = try await client.execute(request, timeout: .seconds(300))
            _ = try await response.body.collect(upTo: 16 << 20)
            return response.status.code
        }
    }
}
