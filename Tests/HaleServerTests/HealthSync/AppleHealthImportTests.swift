import Foundation
import HaleTesting
import HealthExport
import HealthSamples
import SQLKit
import Testing
import Vapor

@testable import HaleServer

/// `hale import apple-health`'s service: a generated export with known daily totals, imported as a sync would store
/// it, once however often it is imported, and not at all when the file is broken.
@Suite("Health: importing an Apple Health export")
struct AppleHealthImportTests {
    static let now = Date(timeIntervalSince1970: 1_742_904_000)  // 2025-03-25T12:00:00Z
    static let generator = AppleHealthExportGenerator(firstDay: "2025-03-01", days: 20, dstChange: "2025-03-09")

    private func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("hale-import-\(UUID().uuidString)-\(name)")
    }

    private func withImport(
        on database: TestDatabase = .sqlite,
        _ body: (Application, AccountID, URL, AppleHealthExportGenerator.Expected) async throws -> Void
    ) async throws {
        try await withHale(on: database, clock: HaleClock { Self.now }) { app in
            let (account, _) = try await makeAccount(app)
            _ = try await app.hale.healthConsents.grant(
                platform: .apple, permissions: [.steps, .workouts], to: account.id)
            let url = temporary("export.zip")
            defer { try? FileManager.default.removeItem(at: url) }
            let expected = try Self.generator.writeZip(to: url)
            try await body(app, account.id, url, expected)
        }
    }

    private func steps(_ app: Application, _ account: AccountID) async throws -> [String: Double] {
        let totals = try await app.hale.healthSync.dailyTotals(
            of: account, type: .steps, from: try #require(LocalDate("2025-02-20")),
            through: try #require(LocalDate("2025-03-31")))
        return Dictionary(uniqueKeysWithValues: totals.map { ($0.key.description, ($0.value * 1000).rounded() / 1000) })
    }

    private func storedSamples(_ app: Application) async throws -> Int {
        let row = try await app.hale.database.sql.raw("SELECT COUNT(*) AS n FROM health_samples").first()
        return try row?.decode(column: "n", as: Int.self) ?? -1
    }

    @Test("cancelled while it checks the file, an import ends in CancellationError, never in a summary")
    func aCancelledImportIsNotComplete() async throws {
        try await withImport { app, account, _, _ in
            // Large enough (about 30,000 records) that the check's first chunk comes long before a batch is read.
            var generator = AppleHealthExportGenerator(firstDay: "2024-11-01", days: 120, dstChange: "2024-11-03")
            generator.extraWalksPerDay = 79
            let url = temporary("large.xml")
            defer { try? FileManager.default.removeItem(at: url) }
            _ = try generator.writeXML(to: url)
            let outcome = await Task {
                try await app.hale.appleHealthImport.run(
                    url, account: account, zone: .gmt,
                    progress: { reached in
                        // As a worker's shutdown would: its task is cancelled in the middle of the file.
                        if reached.phase == "checking" { withUnsafeCurrentTask { $0?.cancel() } }
                    })
            }.result
            switch outcome {
            case .success(let summary): Issue.record("a cancelled import reported \(summary)")
            case .failure(let error): #expect(error is CancellationError, "\(error)")
            }
            let stored = try await self.storedSamples(app)
            #expect(stored == 0)
        }
    }

    @Test(arguments: TestDatabase.available)
    func eachDayIsCountedOnceAsTheSyncCountsIt(database: TestDatabase) async throws {
        try await withImport(on: database) { app, account, url, expected in
            let summary = try await app.hale.appleHealthImport.run(
                url, account: account, zone: TimeZone(identifier: "America/New_York")!)
            #expect(summary.recordsRead == expected.records)
            #expect(summary.imported == expected.stepRecords + expected.workouts)
            #expect(summary.deduplicated == 0)
            #expect(
                summary.skippedByType == [
                    "HKQuantityTypeIdentifierHeartRate": expected.heartRateRecords,
                    "HKQuantityTypeIdentifierBloodPressureSystolic": expected.correlations,
                    "HKCorrelationTypeIdentifierBloodPressure": expected.correlations,
                    "ActivitySummary": expected.activitySummaries,
                ])
            #expect(summary.skippedWithoutConsent == ["distance": expected.distanceRecords])
            #expect(summary.rejected == ["malformed startDate": expected.malformed])
            #expect(try await steps(app, account) == expected.dailySteps)
            #expect(try await storedSamples(app) == summary.imported)
        }
    }

    @Test func importingTwiceStoresNothingTwice() async throws {
        try await withImport { app, account, url, expected in
            let zone = TimeZone(identifier: "America/New_York")!
            let first = try await app.hale.appleHealthImport.run(url, account: account, zone: zone)
            let again = try await app.hale.appleHealthImport.run(url, account: account, zone: zone)
            #expect(again.imported == 0)
            #expect(again.deduplicated == first.imported)
            #expect(try await steps(app, account) == expected.dailySteps)
            #expect(try await storedSamples(app) == first.imported)
        }
    }

    @Test func aSampleAlreadySyncedThroughHealthKitIsNotStoredAgain() async throws {
        try await withImport { app, account, url, expected in
            let zone = TimeZone(identifier: "America/New_York")!
            let synced = HealthSyncSample(
                id: "6F1E3C2A-9B7D-4E21-8F3A-1C2B3D4E5F60", type: "HKQuantityTypeIdentifierStepCount", value: 100,
                unit: "count", startDate: "2025-03-05T09:00:00-05:00", endDate: "2025-03-05T09:10:00-05:00",
                timeZoneOffset: "-05:00", sourceBundle: "com.apple.health", deviceModel: "Watch6,2")
            _ = try await app.hale.healthSync.sync(
                HealthSyncBatch(provider: .healthkit, samples: [synced]), account: account, zone: zone)
            let summary = try await app.hale.appleHealthImport.run(url, account: account, zone: zone)
            #expect(summary.deduplicated == 1)
            #expect(summary.imported == expected.stepRecords + expected.workouts - 1)
            #expect(try await steps(app, account) == expected.dailySteps)
        }
    }

    @Test func aBrokenFileLeavesNothingImported() async throws {
        try await withImport { app, account, url, _ in
            let zone = TimeZone(identifier: "America/New_York")!
            let zipped = try Data(contentsOf: url)
            let broken: [(String, Data, String)] = [
                (
                    "truncated.zip", zipped.prefix(zipped.count * 9 / 10),
                    "The zip archive cannot be read (is it complete?)"
                ),
                (
                    "notes.txt", Data("These are not health records.\n".utf8),
                    "This file is neither a zip archive nor XML"
                ),
                (
                    "bomb.xml",
                    Data(
                        (#"<?xml version="1.0"?><!DOCTYPE HealthData [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>"#
                            + #"<HealthData locale="en"><Record type="&b;" value="1"/></HealthData>"#).utf8),
                    "The tag at byte"
                ),
                (
                    "one-line.xml",
                    Data(("<HealthData locale=\"en\"><Record value=\"" + String(repeating: "9", count: 4 << 20)).utf8),
                    "A tag at byte 24 is longer than 65536 bytes."
                ),
                (
                    "cut.xml",
                    Data(
                        #"<HealthData locale="en"><Record type="HKQuantityTypeIdentifierStepCount" unit="count" value="5" startDate="2025-03-02 09:00:00 -0500" endDate="2025-03-02 09:01:00 -0500"/>"#
                            .utf8),
                    "The export ends before its HealthData element does: it is truncated."
                ),
            ]
            for (name, data, message) in broken {
                let file = temporary(name)
                try data.write(to: file)
                defer { try? FileManager.default.removeItem(at: file) }
                do {
                    _ = try await app.hale.appleHealthImport.run(file, account: account, zone: zone)
                    Issue.record("\(name) was imported")
                } catch let error as ExportError {
                    #expect(error.message.hasPrefix(message), "\(name): \(error.message)")
                }
                #expect(try await storedSamples(app) == 0, "\(name)")
            }
        }
    }
}
