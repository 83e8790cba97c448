import AsyncHTTPClient
import Foundation
import HaleServer
import HealthExport
import NIOCore

/// Uploads the hostile exports (`HostileExports`) and a real-shaped one to a running server, one after another, and
/// reads the server's peak resident memory after each has been imported or refused: what an import of any file may
/// cost the server that runs it.
struct ImportMemoryBenchmark {
    /// One file's upload and what it cost.
    struct Result: Encodable {
        let file: String
        let zipBytes: Int
        let xmlBytes: Int64
        let status: String
        let error: String?
        let recordsRead: Int
        /// Samples stored.
        let imported: Int
        /// How many types the summary names (`skippedByType`).
        let namedSkippedTypes: Int
        /// Records refused, by reason.
        let rejected: [String: Int]
        let seconds: Double
        /// The server's peak resident memory since it started, read once this file's import ended.
        let peakResidentBytes: Double?
    }

    /// An account that shares steps, distance and workouts from Apple Health, and its token.
    static func seed(_ services: HaleServices) async throws -> String {
        let account = try await services.accounts.create(
            email: try AccountEmail("bench-import-\(UUID().uuidString.lowercased())@example.com"), role: "user")
        _ = try await services.healthConsents.grant(
            platform: .apple, permissions: [.steps, .distance, .workouts], to: account.id)
        return try await services.personalAccessTokens.create(for: account.id, name: "hale bench import-memory").token
    }

    let server: URL
    let token: String
    let scale: Double
    let bombBytes: Int64
    /// How long to wait for one import to end.
    let patience: Duration
    /// Which exports to upload, by name.
    let files: [String]

    /// The exports' names: the hostile ones, then a real-shaped one.
    static let fileNames = HostileExports.Kind.allCases.map(\.rawValue) + ["real-shaped"]

    func run(progress: @escaping @Sendable (String) -> Void) async throws -> (
        baseline: ServerMemory?, results: [Result]
    ) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hale-bench-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await withBenchmarkClient { client in
            let baseline = await ServerMemory.read(from: server, with: client)
            var results: [Result] = []
            for kind in HostileExports.Kind.allCases where files.contains(kind.rawValue) {
                let url = directory.appendingPathComponent("\(kind.rawValue).zip")
                let xmlBytes = try HostileExports.write(kind, to: url, scale: scale, bombBytes: bombBytes)
                results.append(try await measure(kind.rawValue, url, xmlBytes: xmlBytes, client: client))
                progress(Self.line(results[results.count - 1]))
                try? FileManager.default.removeItem(at: url)
            }
            guard files.contains("real-shaped") else { return (baseline, results) }
            let real = directory.appendingPathComponent("real.zip")
            var generator = AppleHealthExportGenerator(
                firstDay: Self.day(daysAgo: 360), days: max(1, Int(360 * scale)), dstChange: Self.day(daysAgo: 250))
            generator.extraWalksPerDay = 79
            _ = try generator.writeZip(to: real)
            results.append(try await measure("real-shaped", real, xmlBytes: nil, client: client))
            progress(Self.line(results[results.count - 1]))
            return (baseline, results)
        }
    }

    static func line(_ result: Result) -> String {
        String(
            format: "%@: %@ after %.1f s, %d records read, %d stored, server peak %.1f MB", result.file,
            result.status + (result.error.map { " (\($0))" } ?? ""), result.seconds, result.recordsRead,
            result.imported,
            (result.peakResidentBytes ?? 0) / 1e6)
    }

    private static func day(daysAgo: Int) -> String {
        let date = Date().addingTimeInterval(Double(-daysAgo) * 86_400)
        return String(date.formatted(.iso8601).prefix(10))
    }

    private func measure(_ name: String, _ file: URL, xmlBytes: Int64?, client: HTTPClient) async throws -> Result {
        let data = try Data(contentsOf: file)
        let began = ContinuousClock.now
        let id = try await upload(data, client: client)
        var ended: [String: Any] = [:]
        while ContinuousClock.now - began < patience {
            try await Task.sleep(for: .milliseconds(500))
            let current = try await show(id, client: client)
            if ["completed", "failed"].contains(current["status"] as? String) {
                ended = current
                break
            }
        }
        guard let status = ended["status"] as? String else {
            throw ImportBenchmarkFailure("\(name) did not end in time")
        }
        let summary = ended["summary"] as? [String: Any]
        let error = (ended["error"] as? [String: Any]).flatMap { failure -> String? in
            guard let code = failure["code"] as? String else { return nil }
            return "\(code): \(failure["message"] as? String ?? "")"
        }
        return Result(
            file: name, zipBytes: data.count, xmlBytes: xmlBytes ?? -1, status: status, error: error,
            recordsRead: summary?["recordsRead"] as? Int ?? 0, imported: summary?["imported"] as? Int ?? 0,
            namedSkippedTypes: (summary?["skippedByType"] as? [String: Any])?.count ?? 0,
            rejected: summary?["rejected"] as? [String: Int] ?? [:],
            seconds: (ContinuousClock.now - began).timeInterval,
            peakResidentBytes: await ServerMemory.read(from: server, with: client)?.peakResidentBytes)
    }

    private func upload(_ data: Data, client: HTTPClient) async throws -> String {
        var request = HTTPClientRequest(url: server.appendingPathComponent("api/v1/health/imports").absoluteString)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/zip")
        request.body = .bytes(ByteBuffer(data: data))
        let response = try await client.execute(request, timeout: .seconds(300))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .accepted, let object = Self.importObject(body), let id = object["id"] as? String
        else {
            throw ImportBenchmarkFailure("the upload was refused: \(response.status) \(String(buffer: body))")
        }
        return id
    }

    private func show(_ id: String, client: HTTPClient) async throws -> [String: Any] {
        var request = HTTPClientRequest(
            url: server.appendingPathComponent("api/v1/health/imports/\(id)").absoluteString)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await client.execute(request, timeout: .seconds(60))
        // A server whose summaries grow without bound (before 2026-11) answers megabytes here.
        let body = try await response.body.collect(upTo: 1 << 30)
        guard response.status == .ok, let object = Self.importObject(body) else {
            throw ImportBenchmarkFailure("the import could not be read: \(response.status) \(String(buffer: body))")
        }
        return object
    }

    private static func importObject(_ body: ByteBuffer) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])?["import"] as? [String: Any]
    }
}

/// The import benchmark could not measure what it is for.
struct ImportBenchmarkFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
