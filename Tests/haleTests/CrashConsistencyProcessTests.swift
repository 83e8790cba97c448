import Foundation
import HaleServer
import HaleTesting
import Testing

/// `hale serve` killed with SIGKILL in the middle of 10,000-sample syncs, at several points, on each database: after
/// each restart every batch is all there or absent, the daily totals and a fitness challenge's progress match the
/// samples stored, and a retry with the same `batchId` completes.
@Suite("hale serve, as a process: killed in the middle of a sync", .serialized)
struct CrashConsistencyProcessTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let batchSize = 10_000

    @Test(arguments: TestDatabase.available)
    func aBatchIsWholeOrAbsentAfterKill9(database: TestDatabase) async throws {
        let hale = try HaleExecutable(packageRoot: root)
        let (url, dispose) = try await database.provision()
        let environment = ["HALE_DATABASE_URL": url]
        let created = try await hale.run(
            ["accounts", "create", "--email", "crash@example.com"], environment: environment)
        let token = try #require(
            (try JSONSerialization.jsonObject(with: Data(created.output.utf8)) as? [String: String])?["token"])
        var server = try await hale.serve(environment: environment)
        let today = Date()
        let challenge = try await Self.setUp(server, token: token, today: today)

        let started = ContinuousClock.now
        let measured = try await server.request(
            "POST", "api/v1/health/sync", bearer: token, json: Self.batch("measure", value: 1, today: today))
        #expect(measured.status == 200, "\(String(decoding: measured.body, as: UTF8.self))")
        let duration = ContinuousClock.now - started

        // Each kill hits a batch of its own, so every kill is of a sync not yet stored. Which kills land before the
        // commit depends on the machine's load: while none has, kills come earlier, or this test would show nothing
        // about a kill in the middle of a sync.
        var batches: [(value: Int, body: String, stored: Bool)] = []
        var fractions = [0.3, 0.6, 0.9, 1.5]
        var earlier = [0.1, 0.03, 0.01]
        while !fractions.isEmpty {
            let fraction = fractions.removeFirst()
            let value = batches.count + 2
            let body = Self.batch("crash-\(value)", value: value, today: today)
            let running = server
            let sending = Task { try? await running.request("POST", "api/v1/health/sync", bearer: token, json: body) }
            try await Task.sleep(for: duration * fraction)
            await server.kill()
            _ = await sending.value
            server = try await hale.serve(environment: environment)
            batches.append((value, body, false))
            let stored = try await Self.expectConsistent(
                server, token: token, challenge: challenge, values: batches.map(\.value))
            for index in batches.indices { batches[index].stored = stored[index] }
            print("kill -9 at \(Int(fraction * 100))% of a sync's time: \(stored.last == true ? "there" : "absent")")
            if fractions.isEmpty, batches.allSatisfy(\.stored), !earlier.isEmpty {
                fractions.append(earlier.removeFirst())
            }
        }
        #expect(batches.contains { !$0.stored }, "no kill landed before the commit")

        for batch in batches where !batch.stored {
            let retried = try await server.request("POST", "api/v1/health/sync", bearer: token, json: batch.body)
            #expect(retried.status == 200)
        }
        let stored = try await Self.expectConsistent(
            server, token: token, challenge: challenge, values: batches.map(\.value))
        #expect(stored.allSatisfy { $0 }, "the retries stored every batch: \(stored)")
        await server.stop()
        await dispose()
    }

    /// Grants consent to steps and creates a challenge over the last eight days; returns its id.
    static func setUp(_ server: RunningHale, token: String, today: Date) async throws -> String {
        let consent = try await server.request(
            "POST", "api/v1/health/consent", bearer: token, json: #"{"platform":"apple","permissions":["steps"]}"#)
        #expect(consent.status == 200)
        let days = (first: day(today, offset: -8), last: day(today, offset: 0))
        let created = try await server.request(
            "POST", "api/v1/challenges", bearer: token,
            json:
                #"{"name":"Crash","type":"steps","goal":500000,"startDate":"\#(days.first)","endDate":"\#(days.last)"}"#
        )
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let body = try JSONSerialization.jsonObject(with: created.body) as? [String: Any]
        return try #require((body?["challenge"] as? [String: Any])?["id"] as? String)
    }

    /// 10,000 one-minute steps samples of `value` each, back to back, ending at the whole minute an hour ago.
    ///
    /// Whole minutes, so no sample crosses midnight: statistics count each day's steps in whole numbers, and a
    /// sample split across two days would make their sum differ from the samples' by rounding.
    static func batch(_ id: String, value: Int, today: Date) -> String {
        let formatter = ISO8601DateFormatter()
        let end = Date(timeIntervalSince1970: (today.timeIntervalSince1970 / 60).rounded(.down) * 60 - 3_600)
        let samples = (0..<batchSize).map { index in
            let start = end.addingTimeInterval(Double(index - batchSize) * 60)
            return #"{"id":"\#(id)-\#(index)","type":"steps","value":\#(value),"unit":"count","#
                + #""startDate":"\#(formatter.string(from: start))","#
                + #""endDate":"\#(formatter.string(from: start.addingTimeInterval(60)))"}"#
        }
        return #"{"provider":"healthkit","batchId":"\#(id)","samples":[\#(samples.joined(separator: ","))]}"#
    }

    /// Checks that each killed batch, told apart by its samples' `values`, is whole or absent and that everything
    /// derived from the samples agrees with them; returns whether each batch is there.
    static func expectConsistent(
        _ server: RunningHale, token: String, challenge: String, values batchValues: [Int]
    ) async throws -> [Bool] {
        let export = try await server.request("GET", "api/v1/health/export", bearer: token)
        let samples = (try JSONSerialization.jsonObject(with: export.body) as? [String: Any])?["samples"]
        let values = (samples as? [[String: Any]] ?? []).compactMap { $0["value"] as? Double }
        #expect(values.filter { $0 == 1 }.count == batchSize, "the measured batch is whole")
        let counts = batchValues.map { value in values.filter { $0 == Double(value) }.count }
        for (value, count) in zip(batchValues, counts) {
            #expect(count == 0 || count == batchSize, "batch \(value) is half there: \(count) samples")
        }
        let stored = values.reduce(0, +)

        let today = Date()
        let statistics = try await server.request(
            "GET", "health/statistics?startDate=\(day(today, offset: -9))&endDate=\(day(today, offset: 1))",
            bearer: token)
        let summary = (try JSONSerialization.jsonObject(with: statistics.body) as? [String: Any])?["summary"]
        #expect(
            ((summary as? [String: Any])?["steps"] as? NSNumber)?.doubleValue == stored,
            "daily totals match the samples")

        let shown = try await server.request("GET", "api/v1/challenges/\(challenge)", bearer: token)
        let progress =
            ((try JSONSerialization.jsonObject(with: shown.body) as? [String: Any])?["challenge"]
            as? [String: Any])?["progress"] as? NSNumber
        // Progress adds up each day's share of samples that cross midnight: equal up to rounding.
        #expect(abs((progress?.doubleValue ?? 0) - stored) < 1e-6, "the challenge's progress matches the samples")

        let logs = try await server.request("GET", "api/v1/health/sync-logs?limit=100", bearer: token)
        let batches =
            ((try JSONSerialization.jsonObject(with: logs.body) as? [String: Any])?["syncLogs"]
            as? [[String: Any]] ?? []).compactMap { ($0["recordsInserted"] as? NSNumber)?.intValue }
        let present = counts.map { $0 == batchSize }
        #expect(
            batches.filter { $0 == batchSize }.count == 1 + present.filter { $0 }.count, "a log for each stored batch")
        return present
    }

    static func day(_ date: Date, offset: Int) -> String {
        LocalDate(at: date, in: .gmt).adding(days: offset).description
    }
}
