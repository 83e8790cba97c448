import Foundation
import HaleTesting
import HealthExport
import HealthSamples
import SQLKit
import Testing
import Vapor

@testable import HaleServer

/// What one export may make an import hold or do: a summary of a bounded size, and files past the configured size or
/// record count failed with `INVALID_EXPORT`, nothing stored.
@Suite("Health: an import's bounds")
struct HealthImportBoundsTests {
    typealias Harness = HealthImportRoutesTests.Harness

    static func record(type: String, value: Int = 1) -> String {
        #"<Record type="\#(type)" unit="count" startDate="2025-03-10 09:00:00 -0400" "#
            + #"endDate="2025-03-10 09:10:00 -0400" value="\#(value)"/>"#
    }

    static func export(_ records: some Sequence<String>) -> Data {
        Data(
            (#"<?xml version="1.0"?><HealthData locale="en_US">"# + records.joined(separator: "\n") + "</HealthData>")
                .utf8)
    }

    private static func storedSamples(_ app: Application) async throws -> Int {
        try await app.hale.database.sql.raw("SELECT COUNT(*) AS n FROM health_samples").first()?
            .decode(column: "n", as: Int.self) ?? -1
    }

    @Test func aSummaryNamesAtMost64TypesAndCountsTheRestTogether() async throws {
        try await HealthImportRoutesTests.withHarness { harness in
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("hale-types-\(UUID()).xml")
            defer { try? FileManager.default.removeItem(at: url) }
            let types = (0..<300).map { "HKQuantityTypeIdentifierMadeUp\($0)" }
            try Self.export(types.flatMap { [Self.record(type: $0), Self.record(type: $0)] }).write(to: url)
            let summary = try await harness.app.hale.appleHealthImport.run(
                url, account: harness.account, zone: .gmt)
            #expect(summary.recordsRead == 600)
            #expect(summary.skippedByType.count == AppleHealthImport.Summary.maximumNamedTypes)
            #expect(summary.skippedByType.values.allSatisfy { $0 == 2 })
            #expect(summary.skippedOtherTypes == 600 - 2 * AppleHealthImport.Summary.maximumNamedTypes)
        }
    }

    @Test func summariesAddedTogetherStayBounded() throws {
        var total = AppleHealthImport.Summary()
        for batch in 0..<10 {
            var read = AppleHealthImport.Summary()
            for type in 0..<50 { read.skip(type: "T\(batch)-\(type)") }
            total.add(read)
        }
        #expect(total.skippedByType.count == 64)
        #expect(total.skippedOtherTypes == 500 - 64)
        var known = total
        known.skip(type: "T0-0", count: 3)
        #expect(known.skippedByType["T0-0"] == 4 && known.skippedOtherTypes == total.skippedOtherTypes)
        let stored = try JSONDecoder().decode(
            AppleHealthImport.Summary.self,
            from: Data(
                #"{"recordsRead":1,"imported":1,"deduplicated":0,"skippedByType":{},"skippedWithoutConsent":{},"rejected":{}}"#
                    .utf8))
        #expect(stored.skippedOtherTypes == 0, "a summary stored before the count existed")
    }

    /// Uploads `data` on a server with `settings` and runs the worker once; returns the outcome and the import.
    private func imported(
        _ data: Data, settings: [String: String], _ check: (Harness, HaleServer.HealthImport) async throws -> Void
    )
        async throws
    {
        try await HealthImportRoutesTests.withHarness(settings: settings) { harness in
            let id = try await HealthImportRoutesTests.uploadedID(harness, data)
            let outcome = try await harness.app.hale.healthImports.processNext(logger: harness.app.logger)
            #expect(outcome == .failed(id, code: "INVALID_EXPORT"))
            let failed = try await harness.app.hale.healthImports.find(id.uuidString, of: harness.account)
            #expect(try await Self.storedSamples(harness.app) == 0)
            #expect(HealthImportRoutesTests.filesLeft(harness).isEmpty)
            try await check(harness, failed)
        }
    }

    @Test("more records than health.imports.maxRecords fail the file with INVALID_EXPORT, nothing stored")
    func tooManyRecords() async throws {
        let records = (0..<11).map { Self.record(type: "HKQuantityTypeIdentifierStepCount", value: $0 + 1) }
        try await imported(Self.export(records), settings: ["health.imports.maxRecords": "10"]) { _, failed in
            #expect(failed.errorMessage == "The export holds more than 10 records, the most this server imports.")
        }
    }

    @Test("a zip that inflates past health.imports.maxXMLBytes fails with INVALID_EXPORT, nothing stored")
    func aZipBomb() async throws {
        let bomb = try HostileExports.zipBomb(inflatingTo: 64 << 20)
        try await imported(bomb, settings: ["health.imports.maxXMLBytes": "2MiB"]) { _, failed in
            #expect(failed.errorMessage == "export.xml is longer than 2097152 bytes, the most this server imports.")
        }
    }

    @Test("a type name longer than 128 bytes fails the file with INVALID_EXPORT, nothing stored")
    func aLongTypeName() async throws {
        let records = [
            Self.record(type: "HKQuantityTypeIdentifierStepCount"),
            Self.record(type: String(repeating: "x", count: 65_000)),
        ]
        try await imported(Self.export(records), settings: [:]) { _, failed in
            #expect(failed.errorMessage?.contains("longer than 128 bytes") == true)
        }
    }
}
