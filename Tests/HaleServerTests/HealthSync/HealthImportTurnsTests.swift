import Foundation
import HaleTesting
import HealthExport
import HealthSamples
import SQLKit
import Synchronization
import Testing
import Vapor

@testable import HaleServer

/// An import that pauses at a boundary of its file and resumes there, in either pass, and a worker that shares
/// itself between accounts in turns.
@Suite("Health: imports that take turns")
struct HealthImportTurnsTests {
    static let zone = TimeZone(identifier: "America/New_York")!

    /// About 3,600 step records over 20 days: batches of 1,000 make four.
    static func largeExport() throws -> (URL, AppleHealthExportGenerator.Expected) {
        var generator = AppleHealthImportTests.generator
        generator.extraWalksPerDay = 79
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hale-turns-\(UUID()).xml")
        return (url, try generator.writeXML(to: url))
    }

    private static func steps(_ app: Application, _ account: AccountID) async throws -> [String: Double] {
        let totals = try await app.hale.healthSync.dailyTotals(
            of: account, type: .steps, from: try #require(LocalDate("2025-02-20")),
            through: try #require(LocalDate("2025-03-31")))
        return Dictionary(uniqueKeysWithValues: totals.map { ($0.key.description, ($0.value * 1000).rounded() / 1000) })
    }

    @Test(
        "paused after every batch or chunk, in either pass, an import ends where one run would",
        arguments: [false, true])
    func pausedEverywhereItEndsAlike(pauseWhileChecking: Bool) async throws {
        try await HealthImportRoutesTests.withHarness { harness in
            let (url, expected) = try Self.largeExport()
            defer { try? FileManager.default.removeItem(at: url) }
            let importer = AppleHealthImport(sync: harness.app.hale.healthSync, batchSize: 1_000)
            let committed = Mutex(AppleHealthImport.Checkpoint())
            var checkpoint = AppleHealthImport.Checkpoint()
            var pauses = 0
            while true {
                let outcome = try await importer.run(
                    url, account: harness.account, zone: Self.zone, from: checkpoint,
                    committing: { reached, _ in committed.withLock { $0 = reached } },
                    pausing: { pauseWhileChecking || committed.withLock { $0.check.complete } })
                switch outcome {
                case .paused(let reached):
                    #expect(reached == committed.withLock { $0 }, "what a pause returns is what it committed")
                    #expect(reached != checkpoint, "each turn moves on")
                    checkpoint = reached
                    pauses += 1
                case .completed(let summary):
                    #expect(summary.recordsRead == expected.records)
                    #expect(summary.imported == expected.stepRecords + expected.workouts)
                    #expect(summary.deduplicated == 0, "nothing read twice")
                    #expect(summary.rejected == ["malformed startDate": expected.malformed])
                    #expect(try await Self.steps(harness.app, harness.account) == expected.dailySteps)
                    #expect(pauses >= 3, "\(pauses) pauses")
                    return
                }
            }
        }
    }

    @Test(
        "with two accounts' imports queued, the worker takes turns: the small one ends before the large one",
        arguments: TestDatabase.available)
    func theWorkerTakesTurns(database: TestDatabase) async throws {
        try await HealthImportRoutesTests.withHarness(on: database) { harness in
            let (url, expected) = try Self.largeExport()
            defer { try? FileManager.default.removeItem(at: url) }
            let large = try await HealthImportRoutesTests.uploadedID(harness, try Data(contentsOf: url))
            harness.clock.advance(.seconds(1))
            let (other, otherToken) = try await makeAccount(harness.app, email: "other@example.com")
            _ = try await harness.app.hale.healthConsents.grant(
                platform: .apple, permissions: [.steps, .workouts], to: other.id)
            let otherHarness = HealthImportRoutesTests.Harness(
                app: harness.app, account: other.id, token: otherToken, directory: harness.directory,
                clock: harness.clock)
            let (small, smallExpected) = try HealthImportRoutesTests.exportZip()
            let smallID = try await HealthImportRoutesTests.uploadedID(otherHarness, small)

            let defaults = harness.app.hale.healthImports
            let imports = HealthImports(
                repository: SQLHealthImportRepository(database: harness.app.hale.database),
                importer: AppleHealthImport(sync: harness.app.hale.healthSync, batchSize: 1_000),
                consents: harness.app.hale.healthConsents, clock: harness.clock.clock, directory: defaults.directory,
                maximumBytes: defaults.maximumBytes, timeSlice: .zero)
            var outcomes: [HealthImports.Outcome] = []
            while outcomes.count < 1_000 {
                harness.clock.advance(.seconds(1))
                let outcome = try await imports.processNext(logger: harness.app.logger)
                if outcome == .idle { break }
                outcomes.append(outcome)
            }
            let smallDone = try #require(outcomes.firstIndex(of: .completed(smallID)))
            let largeDone = try #require(outcomes.firstIndex(of: .completed(large)))
            #expect(smallDone < largeDone, "\(outcomes)")
            #expect(outcomes.first == .paused(large), "the large import gave way while the small one waited")
            #expect(
                outcomes[smallDone...].dropFirst().allSatisfy { $0 != .paused(large) } || smallDone > largeDone,
                "alone, the large import no longer pauses")
            let done = try await imports.find(large.uuidString, of: harness.account)
            #expect(done.checkpoint.summary.imported == expected.stepRecords + expected.workouts)
            #expect(done.checkpoint.summary.deduplicated == 0)
            #expect(done.attempts <= 1, "a turn given up is not a failed attempt")
            let smallRecord = try await imports.find(smallID.uuidString, of: other.id)
            #expect(smallRecord.checkpoint.summary.imported == smallExpected.stepRecords + smallExpected.workouts)
            #expect(try await Self.steps(harness.app, harness.account) == expected.dailySteps)
        }
    }
}
