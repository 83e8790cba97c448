import Foundation
import HaleServer
import HaleTesting
import Testing
import Vapor
import VaporTesting

@testable import hale

@Suite("hale bench health-sync")
struct HealthSyncBenchmarkTests {
    @Test func parses() throws {
        let command = try HaleCommand.parseAsRoot(["bench", "health-sync", "--samples", "50", "--rounds", "2"])
        #expect((command as? BenchCommand.HealthSync)?.samples == 50)
        #expect(throws: (any Error).self) {
            try HaleCommand.parseAsRoot(["bench", "health-sync", "--samples", "10001"])
        }
    }

    @Test("each phase's batch does what the phase is named for, with every sample accepted")
    func phases() async throws {
        try await withHale { app in
            let token = try await HealthSyncBenchmark.seed(app.hale)
            let today = Calendar(identifier: .gregorian).startOfDay(for: Date())
            let expected: [(HealthSyncBenchmark.Phase, String)] = [
                (.insert, "recordsInserted"), (.resend, "recordsDeduplicated"), (.update, "recordsUpdated"),
                (.delete, "recordsDeleted"),
            ]
            for (phase, counter) in expected {
                let body = HealthSyncBenchmark.body(phase, round: 1, count: 500, today: today)
                let headers: HTTPHeaders = ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]
                let response = try await app.testing().sendRequest(
                    .POST, "/api/v1/health/sync", headers: headers, body: ByteBuffer(string: body))
                #expect(response.status == .ok, "\(response.body.string)")
                let answer = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                let log = answer?["syncLog"] as? [String: Any] ?? [:]
                #expect(log[counter] as? Int == 500, "\(phase): \(log)")
                #expect(log["recordsRejected"] as? Int == 0)
            }
        }
    }

    @Test("the server's memory is read from the two gauges it exports")
    func serverMemory() {
        let text = """
            # TYPE process_resident_memory_bytes gauge
            process_resident_memory_bytes 104857600
            hale_process_peak_resident_memory_bytes 209715200
            """
        #expect(ServerMemory(prometheus: text)?.residentBytes == 104_857_600)
        #expect(ServerMemory(prometheus: text)?.peakResidentBytes == 209_715_200)
        #expect(ServerMemory(prometheus: "process_resident_memory_bytes 1") == nil)
    }
}
