import Crypto
import Foundation
import HaleTesting
import HealthExport
import HealthSamples
import Synchronization
import Testing
import Vapor
import VaporTesting

@testable import HaleServer

/// `POST /api/v1/health/imports` and its background import: the upload is written to disk and queued, imported by
/// `processNext` with the counts a direct import makes, resumed after a stop without counting anything twice, and
/// every bad upload refused with nothing left behind.
@Suite("HTTP: uploading an Apple Health export")
struct HealthImportRoutesTests {
    static let generator = AppleHealthImportTests.generator
    static let zone = TimeZone(identifier: "America/New_York")!

    struct Harness {
        let app: Application
        let account: AccountID
        let token: String
        let directory: URL
        let clock: TestClock
    }

    /// An account sharing steps and workouts from Apple Health, on a server whose imports are left to the test.
    static func withHarness(
        on database: TestDatabase = .sqlite, settings: [String: String] = [:], grant: Bool = true,
        _ body: (Harness) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hale-imports-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = TestClock(AppleHealthImportTests.now)
        var settings = settings
        settings["health.imports.directory"] = directory.path
        settings["health.imports.worker"] = "false"
        try await withHale(on: database, clock: clock.clock, settings: settings) { app in
            let (account, token) = try await makeAccount(app)
            if grant {
                _ = try await app.hale.healthConsents.grant(
                    platform: .apple, permissions: [.steps, .workouts], to: account.id)
            }
            try await body(Harness(app: app, account: account.id, token: token, directory: directory, clock: clock))
        }
    }

    static func exportZip() throws -> (Data, AppleHealthExportGenerator.Expected) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hale-upload-\(UUID()).zip")
        defer { try? FileManager.default.removeItem(at: url) }
        let expected = try generator.writeZip(to: url)
        return (try Data(contentsOf: url), expected)
    }

    static func upload(
        _ harness: Harness, _ data: Data, headers extra: HTTPHeaders = [:]
    ) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders.bearer(harness.token)
        headers.add(name: .contentType, value: "application/zip")
        headers.add(name: "X-Timezone", value: zone.identifier)
        for (name, value) in extra { headers.replaceOrAdd(name: name, value: value) }
        return try await harness.app.testing().sendRequest(
            .POST, "/api/v1/health/imports", headers: headers, body: ByteBuffer(data: data))
    }

    static func show(_ harness: Harness, _ id: String, token: String? = nil) async throws -> TestingHTTPResponse {
        try await harness.app.testing().sendRequest(
            .GET, "/api/v1/health/imports/\(id)", headers: .bearer(token ?? harness.token))
    }

    static func filesLeft(_ harness: Harness) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: harness.directory.path)) ?? []
    }

    static func importObject(_ response: TestingHTTPResponse) throws -> [String: Any] {
        try #require(try response.json()["import"] as? [String: Any])
    }

    /// Uploads `data` and returns the id of the import it queued.
    static func uploadedID(_ harness: Harness, _ data: Data) async throws -> UUID {
        let text = try #require(try importObject(try await upload(harness, data))["id"] as? String)
        return try #require(UUID(uuidString: text))
    }

    @Test(
        "an upload is queued, imported in the background with the counts a direct import makes, and its file removed",
        arguments: TestDatabase.available)
    func anUploadIsImported(database: TestDatabase) async throws {
        try await Self.withHarness(on: database) { harness in
            let (data, expected) = try Self.exportZip()
            let response = try await Self.upload(harness, data)
            #expect(response.status == .accepted, "\(response.body.string)")
            let queued = try Self.importObject(response)
            let id = try #require(queued["id"] as? String)
            #expect(response.headers.first(name: .location) == "/api/v1/health/imports/\(id)")
            #expect(queued["status"] as? String == "queued")
            #expect(queued["bytes"] as? Int == data.count)
            #expect(Self.filesLeft(harness) == ["\(id).upload"])

            let outcome = try await harness.app.hale.healthImports.processNext(logger: harness.app.logger)
            #expect(outcome == .completed(try #require(UUID(uuidString: id))))
            let done = try Self.importObject(try await Self.show(harness, id))
            #expect(done["status"] as? String == "completed")
            let summary = try #require(done["summary"] as? [String: Any])
            #expect(summary["recordsRead"] as? Int == expected.records)
            #expect(summary["imported"] as? Int == expected.stepRecords + expected.workouts)
            #expect(summary["deduplicated"] as? Int == 0)
            #expect(summary["rejected"] as? [String: Int] == ["malformed startDate": expected.malformed])
            #expect((done["progress"] as? [String: Any])?["phase"] as? String == "importing")
            #expect(Self.filesLeft(harness).isEmpty)
            let totals = try await harness.app.hale.healthSync.dailyTotals(
                of: harness.account, type: .steps, from: try #require(LocalDate("2025-02-20")),
                through: try #require(LocalDate("2025-03-31")))
            #expect(
                Dictionary(
                    uniqueKeysWithValues: totals.map { ($0.key.description, ($0.value * 1000).rounded() / 1000) })
                    == expected.dailySteps)
            #expect(try await harness.app.hale.healthImports.processNext(logger: harness.app.logger) == .idle)
        }
    }

    @Test(
        "an import stopped in the middle of a batch resumes from its last checkpoint and counts nothing twice",
        arguments: TestDatabase.available)
    func aStoppedImportResumes(database: TestDatabase) async throws {
        var generator = Self.generator
        generator.extraWalksPerDay = 79  // about 3,600 step records: the import stores them in batches of 1,000
        try await Self.withHarness(on: database) { harness in
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("hale-upload-\(UUID()).xml")
            defer { try? FileManager.default.removeItem(at: url) }
            let expected = try generator.writeXML(to: url)
            let id = try await Self.uploadedID(harness, try Data(contentsOf: url))

            // An instance that claims the import, commits its first batch, and dies in the middle of its second.
            let imports = harness.app.hale.healthImports
            let repository = SQLHealthImportRepository(database: harness.app.hale.database)
            let claimed = try #require(
                try await repository.claimNext(at: harness.clock.clock.now(), lease: .seconds(120)))
            let batches = Counter()
            let importer = AppleHealthImport(sync: harness.app.hale.healthSync, batchSize: 1_000)
            await #expect(throws: Crashed.self) {
                _ = try await importer.run(
                    imports.files(for: id).complete, account: harness.account, zone: Self.zone,
                    committing: { checkpoint, work in
                        try await repository.checkpoint(claimed, checkpoint, at: Date(), in: work)
                        // The check's own checkpoint (the file checked whole) stores no batch.
                        if checkpoint.events > 0, batches.increment() == 2 { throw Crashed() }
                    })
            }
            let stopped = try #require(try await repository.find(id, of: harness.account))
            #expect(stopped.status == .running)
            #expect(stopped.checkpoint.summary.imported == 1_000, "the first batch's checkpoint, not the second's")

            // Before its lease lapses no other instance takes it; after, the next claim resumes it.
            #expect(try await imports.processNext(logger: harness.app.logger) == .idle)
            harness.clock.advance(.seconds(121))
            let resumed = HealthImports(
                repository: repository, importer: importer, consents: harness.app.hale.healthConsents,
                clock: harness.clock.clock, directory: imports.directory, maximumBytes: imports.maximumBytes)
            #expect(try await resumed.processNext(logger: harness.app.logger) == .completed(id))
            let done = try #require(try await repository.find(id, of: harness.account))
            #expect(done.checkpoint.summary.recordsRead == expected.records)
            #expect(done.checkpoint.summary.imported == expected.stepRecords + expected.workouts)
            #expect(done.checkpoint.summary.deduplicated == 0, "nothing imported before the stop was counted again")
            let stored = try await harness.app.hale.database.sql.raw("SELECT COUNT(*) AS n FROM health_samples")
                .first()?.decode(column: "n", as: Int.self)
            #expect(stored == expected.stepRecords + expected.workouts)
        }
    }

    @Test(
        "an import whose passes die is failed with IMPORT_FAILED by the claim after the fifth; a shutdown's do not count",
        arguments: TestDatabase.available)
    func anImportIsNotRetriedForEver(database: TestDatabase) async throws {
        try await Self.withHarness(on: database) { harness in
            let id = try await Self.uploadedID(harness, try Self.exportZip().0)
            let imports = harness.app.hale.healthImports
            let repository = SQLHealthImportRepository(database: harness.app.hale.database)

            // Given back at shutdowns, as often as you like: still imported.
            for _ in 1...(HealthImports.maximumAttempts + 1) {
                let claimed = try #require(
                    try await repository.claimNext(at: harness.clock.clock.now(), lease: HealthImports.lease))
                #expect(try await repository.release(claimed, at: harness.clock.clock.now(), requeued: false))
            }
            #expect(try await repository.find(id, of: harness.account)?.attempts == 0)

            // Five passes that die (their leases lapse), then a sixth claim: failed, not retried.
            for attempt in 1...HealthImports.maximumAttempts {
                let claimed = try #require(
                    try await repository.claimNext(at: harness.clock.clock.now(), lease: HealthImports.lease))
                #expect(claimed.record.attempts == attempt)
                harness.clock.advance(.seconds(121))
            }
            #expect(try await imports.processNext(logger: harness.app.logger) == .failed(id, code: "IMPORT_FAILED"))
            let failed = try #require(try await repository.find(id, of: harness.account))
            #expect(failed.status == .failed && failed.errorCode == "IMPORT_FAILED")
            #expect(Self.filesLeft(harness).isEmpty, "the upload is deleted")

            // The fifth pass's claim would have been the last try; the one before it still imports.
            let secondID = try await Self.uploadedID(harness, try Self.exportZip().0)
            for _ in 1..<HealthImports.maximumAttempts {
                _ = try #require(
                    try await repository.claimNext(at: harness.clock.clock.now(), lease: HealthImports.lease))
                harness.clock.advance(.seconds(121))
            }
            #expect(try await imports.processNext(logger: harness.app.logger) == .completed(secondID))
        }
    }

    @Test("uploads that race for one account queue one import", arguments: TestDatabase.available)
    func racingUploadsQueueOneImport(database: TestDatabase) async throws {
        try await Self.withHarness(on: database) { harness in
            let repository = SQLHealthImportRepository(database: harness.app.hale.database)
            let now = harness.clock.clock.now()
            let racers = 6  // under the pool's 8 connections: a racer waiting for one would wait behind the lock
            let answers = try await withThrowingTaskGroup(of: (UUID, UUID?).self) { group in
                for _ in 0..<racers {
                    group.addTask {
                        let record = HealthImport(
                            id: UUID(), accountId: harness.account, status: .queued, bytes: 1, timeZone: "UTC",
                            createdAt: now, updatedAt: now, completedAt: nil, phase: nil, recordsRead: 0, fraction: 0,
                            checkpoint: AppleHealthImport.Checkpoint(), errorCode: nil, errorMessage: nil)
                        return (record.id, try await repository.reserve(record))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let queued = answers.filter { $0.1 == nil }.map(\.0)
            #expect(queued.count == 1, "one queued, the others told which is")
            #expect(answers.compactMap(\.1).allSatisfy { $0 == queued.first })
            #expect(try await repository.imports(of: harness.account, limit: racers).count == 1)
        }
    }

    @Test(
        "workers racing for one queued import: one claims it", .racesNeedPostgreSQL, arguments: TestDatabase.available)
    func racingClaimsTakeOneImport(database: TestDatabase) async throws {
        try await Self.withHarness(on: database) { harness in
            let repository = SQLHealthImportRepository(database: harness.app.hale.database)
            let now = harness.clock.clock.now()
            // One race of six showed a second claim without SKIP LOCKED in 2 runs of 3; five in a row rarely miss.
            for round in 0..<5 {
                let (account, _) = try await makeAccount(harness.app, email: "round\(round)@example.com")
                let record = HealthImport(
                    id: UUID(), accountId: account.id, status: .queued, bytes: 1, timeZone: "UTC",
                    createdAt: now, updatedAt: now, completedAt: nil, phase: nil, recordsRead: 0, fraction: 0,
                    checkpoint: AppleHealthImport.Checkpoint(), errorCode: nil, errorMessage: nil)
                #expect(try await repository.reserve(record) == nil)
                let claims = try await withThrowingTaskGroup(of: ClaimedHealthImport?.self) { group in
                    for _ in 0..<6 { group.addTask { try await repository.claimNext(at: now, lease: .seconds(120)) } }
                    return try await group.reduce(into: [ClaimedHealthImport]()) {
                        if let claim = $1 { $0.append(claim) }
                    }
                }
                #expect(claims.map(\.record.id) == [record.id], "round \(round)")
            }
        }
    }

    @Test("a file that is not an export is uploaded, then fails with INVALID_EXPORT and imports nothing")
    func aFileThatIsNotAnExportFails() async throws {
        try await Self.withHarness { harness in
            let response = try await Self.upload(harness, Data("These are not health records.\n".utf8))
            let id = try #require(try Self.importObject(response)["id"] as? String)
            let outcome = try await harness.app.hale.healthImports.processNext(logger: harness.app.logger)
            #expect(outcome == .failed(try #require(UUID(uuidString: id)), code: "INVALID_EXPORT"))
            let failed = try Self.importObject(try await Self.show(harness, id))
            #expect(failed["status"] as? String == "failed")
            #expect((failed["error"] as? [String: Any])?["code"] as? String == "INVALID_EXPORT")
            #expect(Self.filesLeft(harness).isEmpty)
        }
    }

    @Test("an upload without consent to any Apple Health data is 403 CONSENT_REQUIRED, with nothing written")
    func anUploadWithoutConsent() async throws {
        try await Self.withHarness(grant: false) { harness in
            let response = try await Self.upload(harness, Data("x".utf8))
            #expect(response.status == .forbidden)
            #expect(try response.coreError().error.code == "CONSENT_REQUIRED")
            #expect(Self.filesLeft(harness).isEmpty)
        }
    }

    @Test("bad uploads are refused with their reason and leave no file")
    func badUploadsAreRefused() async throws {
        try await Self.withHarness(settings: ["health.imports.maxBytes": "1KiB"]) { harness in
            let body = Data(repeating: 0x3C, count: 100)
            let wrongDigest = "sha-256=:\(Data(SHA256.hash(data: Data("other".utf8))).base64EncodedString()):"
            let cases: [(String, Data, HTTPHeaders, HTTPStatus, String)] = [
                ("empty", Data(), [:], .badRequest, "INVALID_REQUEST"),
                ("over the limit", Data(repeating: 0x3C, count: 1_025), [:], .payloadTooLarge, "PAYLOAD_TOO_LARGE"),
                ("a digest of other bytes", body, ["Content-Digest": wrongDigest], .badRequest, "INVALID_REQUEST"),
                (
                    "a digest that is not sha-256", body, ["Content-Digest": "md5=:AAAA:"], .badRequest,
                    "INVALID_REQUEST"
                ),
            ]
            for (name, data, headers, status, code) in cases {
                let response = try await Self.upload(harness, data, headers: headers)
                #expect(response.status == status, "\(name): \(response.body.string)")
                #expect(try response.coreError().error.code == code, "\(name)")
                #expect(Self.filesLeft(harness).isEmpty, "\(name) left a file")
            }
            let digest = "sha-256=:\(Data(SHA256.hash(data: body)).base64EncodedString()):"
            let accepted = try await Self.upload(harness, body, headers: ["Content-Digest": digest])
            #expect(accepted.status == .accepted, "the body its digest declares")
        }
    }

    @Test("a second upload while one is queued is 409; another account's import is 404")
    func oneAtATimeAndOnlyOnesOwn() async throws {
        try await Self.withHarness { harness in
            let first = try await Self.upload(harness, Data("a".utf8))
            let id = try #require(try Self.importObject(first)["id"] as? String)
            let second = try await Self.upload(harness, Data("b".utf8))
            #expect(second.status == .conflict)
            #expect(try second.coreError().error.code == "CONFLICT")
            let (_, otherToken) = try await makeAccount(harness.app, email: "other@example.com")
            for path in [id, "not-an-id", UUID().uuidString] {
                let response = try await Self.show(harness, path, token: path == id ? otherToken : nil)
                #expect(response.status == .notFound, "\(path)")
                #expect(try response.coreError().error.code == "NOT_FOUND")
            }
        }
    }

    @Test("with health.requireAttestation all, an upload needs the attestation headers and a Content-Digest")
    func attestationIsRequiredWhenConfigured() async throws {
        try await Self.withHarness(settings: ["health.requireAttestation": "all"]) { harness in
            let unattested = try await Self.upload(harness, Data("a".utf8))
            #expect(unattested.status == .unauthorized)
            #expect(try unattested.coreError().error.code == "ATTESTATION_REQUIRED")
            let undeclared = try await Self.upload(
                harness, Data("a".utf8),
                headers: [
                    "X-Attestation-Platform": "ios", "X-Attestation-Nonce": "n", "X-Attestation-Token": "t",
                ])
            #expect(undeclared.status == .badRequest)
            #expect(try undeclared.coreError().error.message.contains("Content-Digest"))
            #expect(Self.filesLeft(harness).isEmpty)
        }
    }
}

private struct Crashed: Error {}

private final class Counter: Sendable {
    private let value = Mutex(0)
    func increment() -> Int {
        value.withLock {
            $0 += 1; return $0
        }
    }
}
