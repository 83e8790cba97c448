import Foundation
import HaleServer
import HaleTesting
import Testing

/// `hale serve` importing exports made to hurt it, as a process: each is refused for its reason or imported with a
/// bounded summary, and the server's peak resident memory stays under 200 MB (`hale bench import-memory`, at a
/// quarter of its full size).
@Suite("hale serve: hostile imports in bounded memory", .serialized)
struct ImportMemoryProcessTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Output: Decodable {
        struct File: Decodable {
            let file: String
            let status: String
            let error: String?
            let recordsRead: Int
            let namedSkippedTypes: Int
            let rejected: [String: Int]
            let peakResidentBytes: Double?
        }

        let files: [File]
        let peakResidentBytes: Double
    }

    @Test func hostileExportsAreRefusedOrBoundedAndTheServerStaysUnder200MB() async throws {
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await TestDatabase.sqlite.provision()
        defer { Task { await dispose() } }
        let environment = [
            "HALE_DATABASE_URL": url, "HALE_HEALTH_IMPORTS_MAX_XML_BYTES": "256MiB",
            "HALE_RATE_LIMITS_HEALTH_IMPORTS_PER_ACCOUNT": "1000/1m",
        ]
        let server = try await hale.serve(environment: environment)
        defer { server.stop() }
        let run = try await hale.run(
            [
                "bench", "import-memory", "--server", server.baseURL.absoluteString, "--scale", "0.25", "--bomb-mib",
                "512", "--json",
            ], environment: environment)
        let output = try JSONDecoder().decode(Output.self, from: Data(run.output.utf8))
        let files = Dictionary(uniqueKeysWithValues: output.files.map { ($0.file, $0) })
        #expect(run.status == 0, "\(run.output)")

        let manyTypes = try #require(files["many-types"])
        #expect(manyTypes.status == "completed" && manyTypes.recordsRead == 250_000)
        #expect(manyTypes.namedSkippedTypes == 64)
        let longSources = try #require(files["long-source-names"])
        #expect(longSources.status == "completed" && longSources.rejected == ["malformed sourceName": 2_500])
        let refusals = [
            ("long-types", "longer than 128 bytes"), ("record-bomb", "export.xml is longer than 268435456 bytes"),
            ("whitespace-bomb", "hold no complete record"), ("deep-nesting", "nest more than 16 deep"),
        ]
        for (name, reason) in refusals {
            let file = try #require(files[name])
            #expect(file.status == "failed", "\(name)")
            #expect(file.error?.hasPrefix("INVALID_EXPORT") == true && file.error?.contains(reason) == true, "\(name)")
        }
        #expect(files["real-shaped"]?.status == "completed")
        #expect(output.peakResidentBytes > 0 && output.peakResidentBytes < 200_000_000, "\(output.peakResidentBytes)")
    }
}
