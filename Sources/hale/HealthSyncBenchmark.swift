import AsyncHTTPClient
import Foundation
import HaleServer
import NIOCore

/// Seed 004's sample sync at its largest batch, against a running server. Each round posts one batch of new
/// samples (inserted), the same batch again (deduplicated), every sample changed with a newer version (updated),
/// and a batch deleting them all; the figures are each phase's median time, at the client and at the server, and
/// the server's memory.
struct HealthSyncBenchmark {
    /// What one round does.
    enum Phase: String, CaseIterable, Codable {
        case insert, resend, update, delete
    }

    /// One phase's times over every round.
    struct Result: Codable {
        let phase: Phase
        let batches: Int
        let samplesPerBatch: Int
        let p50Seconds: Double
        let samplesPerSecond: Double
        /// The server's mean time for the phase's requests, from its `/metrics` histogram.
        let serverMeanSeconds: Double?
    }

    /// Sample types in turn; each type alternates between a watch and a phone.
    static let types = [
        ("steps", "count"), ("distance", "m"), ("calories", "kcal"), ("active_minutes", "min"),
    ]
    static let devices = ["Watch6,2", "iPhone14,2"]

    /// Creates an account that consents to the four types from Apple Health; returns a token for it.
    static func seed(_ services: HaleServices) async throws -> String {
        let account = try await services.accounts.create(
            email: try AccountEmail("bench-sync-\(UUID().uuidString.lowercased())@example.com"), role: "user")
        _ = try await services.healthConsents.grant(
            platform: .apple, permissions: types.map { HealthSampleType(rawValue: $0.0)! }, to: account.id)
        return try await services.personalAccessTokens.create(for: account.id, name: "hale bench health-sync").token
    }

    /// The body of `phase` in `round`: `count` samples over the 28 days before `today`, in 15-minute slots, a
    /// watch's and a phone's overlapping, so that source priority has work to do.
    static func body(_ phase: Phase, round: Int, count: Int, today: Date) -> String {
        let ids = (0..<count).map { String(format: "%08X-0000-4000-8000-%012X", round, $0) }
        if phase == .delete {
            return #"{"provider":"healthkit","syncType":"background","samples":[],"deletions":["#
                + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
        }
        let version = phase == .update ? 2 : 1
        let samples = ids.indices.map { index in
            sample(index, id: ids[index], version: version, today: today)
        }
        return #"{"provider":"healthkit","syncType":"background","samples":["#
            + samples.joined(separator: ",") + #"],"deletions":[]}"#
    }

    private static func sample(_ index: Int, id: String, version: Int, today: Date) -> String {
        let (type, unit) = types[index % types.count]
        let device = (index / types.count) % devices.count
        let daysAgo = (index / (types.count * devices.count)) % 28 + 1
        let slot = (index / (types.count * devices.count * 28)) % 96
        let start = today.addingTimeInterval(Double(-daysAgo * 86_400 + slot * 900 + device * 300))
        let value = Double(10 + index % 90 + version - 1)
        return #"{"id":"\#(id)","type":"\#(type)","value":\#(value),"unit":"\#(unit)","#
            + #""startDate":"\#(start.formatted(.iso8601))","endDate":"\#((start + 600).formatted(.iso8601))","#
            + #""timeZoneOffset":"+00:00","sourceBundle":"com.apple.health","deviceModel":"\#(devices[device])","#
            + #""userEntered":false,"version":\#(version)}"#
    }

    let server: URL
    let token: String
    let samples: Int
    let rounds: Int

    func run(progress: @escaping @Sendable (String) -> Void) async throws -> (results: [Result], memory: ServerMemory?)
    {
        try await withBenchmarkClient { client in
            let results = try await measure(with: client, progress: progress)
            return (results, await ServerMemory.read(from: server, with: client))
        }
    }

    private func measure(with client: HTTPClient, progress: @Sendable (String) -> Void) async throws -> [Result] {
        let today = Calendar(identifier: .gregorian).startOfDay(for: Date())
        let url = server.appendingPathComponent("api/v1/health/sync").absoluteString
        var times: [Phase: [Duration]] = [:]
        var atServer: [Phase: ServerRequestTimes] = [:]
        let clock = ContinuousClock()
        for round in 1...rounds {
            for phase in Phase.allCases {
                let body = Self.body(phase, round: round, count: samples, today: today)
                let before = await ServerRequestTimes.read(
                    from: server, path: "/api/v1/health/sync", method: "POST", with: client)
                let began = clock.now
                let log = try await post(body, to: url, with: client)
                let took = clock.now - began
                times[phase, default: []].append(took)
                let after = await ServerRequestTimes.read(
                    from: server, path: "/api/v1/health/sync", method: "POST", with: client)
                if let before, let after {
                    let spent = after.since(before)
                    atServer[phase, default: ServerRequestTimes()].count += spent.count
                    atServer[phase, default: ServerRequestTimes()].seconds += spent.seconds
                }
                try check(log, after: phase)
                progress(String(format: "round %d/%d %@: %.2f s", round, rounds, phase.rawValue, took.timeInterval))
            }
        }
        return Phase.allCases.map { phase in
            let sorted = (times[phase] ?? []).sorted()
            let median = sorted[sorted.count / 2].timeInterval
            let server = atServer[phase].flatMap { $0.count > 0 ? $0.meanMilliseconds / 1000 : nil }
            return Result(
                phase: phase, batches: sorted.count, samplesPerBatch: samples, p50Seconds: median,
                samplesPerSecond: Double(samples) / median, serverMeanSeconds: server)
        }
    }

    /// Throws unless the sync did what the phase is for, so the figures measure what they say.
    private func check(_ log: [String: Any], after phase: Phase) throws {
        let counter =
            switch phase {
            case .insert: "recordsInserted"
            case .resend: "recordsDeduplicated"
            case .update: "recordsUpdated"
            case .delete: "recordsDeleted"
            }
        guard log[counter] as? Int == samples, log["recordsRejected"] as? Int == 0 else {
            throw HealthSyncBenchmarkUnexpected(phase: phase, log: log.description)
        }
    }

    /// Posts a batch; returns its sync log.
    private func post(_ body: String, to url: String, with client: HTTPClient) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await client.execute(request, timeout: .seconds(300))
        let answer = try await response.body.collect(upTo: 16 << 20)
        guard response.status == .ok else {
            throw BenchmarkRequestFailed(path: url, status: response.status.code, body: String(buffer: answer))
        }
        let json = try JSONSerialization.jsonObject(with: Data(buffer: answer)) as? [String: Any]
        return json?["syncLog"] as? [String: Any] ?? [:]
    }
}

/// A benchmark sync whose log did not say what its phase expects.
struct HealthSyncBenchmarkUnexpected: Error, CustomStringConvertible {
    let phase: HealthSyncBenchmark.Phase
    let log: String

    var description: String { "The \(phase.rawValue) batch did not do what it should: \(log)" }
}
