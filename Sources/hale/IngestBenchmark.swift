import Foundation
import HaleServer
import HealthExport
import HealthSamples
import Synchronization

/// The sample sync's and the Apple Health import's write rates beside a bare `COPY` of the same rows into the same
/// table, measured in one run, in this process, on the configured PostgreSQL database.
///
/// Each round loads one batch three ways: with `COPY` into a baseline account (then removed, so every round meets
/// the same table; the rows are written in `COPY`'s text format before the clock starts, as a file for `\copy`
/// is), through the sync as new samples into an account that shares the four types and takes part in a
/// step challenge over every day the batches touch, through the sync again (every sample deduplicated), and as an
/// attested write into an account in a verified step challenge (its verified totals kept as well). The
/// rounds' batches cover 28 days each, one after another back from yesterday, so no round rereads another's days.
/// Then the round imports a generated export into a fresh account, and loads the rows the import stored again with
/// `COPY` (into the baseline account, then removed): the import's ratio is to that `COPY`, of its own rows, which
/// takes a second rather than the batch's fraction of one that a hiccup of a shared machine doubles. Each ratio is
/// the median of the rounds' own ratios: a round's loads run one after another, so a slow minute slows them alike.
struct IngestBenchmark {
    /// The medians over every round.
    struct Result: Codable {
        let samplesPerBatch: Int
        let rounds: Int
        let copyRowsPerSecond: Double
        let syncNewSamplesPerSecond: Double
        let syncResentSamplesPerSecond: Double
        /// New samples brought by an attested write, into an account in a verified step challenge.
        let syncAttestedSamplesPerSecond: Double
        let importRecords: Int
        let importSamplesStored: Int
        let importRecordsPerSecond: Double
        let importSamplesStoredPerSecond: Double
        /// `COPY` of the rows the import stored, loaded again after it.
        let importCopyRowsPerSecond: Double
        let peakResidentBytes: Int?

        /// The medians of each round's rate over that round's COPY rate.
        let newRatio: Double
        let resentRatio: Double
        let attestedRatio: Double
        let importRatio: Double
    }

    static let types = [("steps", "count"), ("distance", "m"), ("calories", "kcal"), ("active_minutes", "min")]
    static let devices = ["Watch6,2", "iPhone14,2"]

    let services: HaleServices
    let samples: Int
    let rounds: Int
    /// Days of the generated export, ending yesterday.
    let importDays: Int
    /// Extra walks per day in the generated export (`AppleHealthExportGenerator.extraWalksPerDay`).
    let importWalksPerDay: Int

    func run(progress: @Sendable (String) -> Void) async throws -> Result {
        let today = Calendar(identifier: .gregorian).startOfDay(for: Date())
        let syncing = try await consentingAccount("bench-ingest-sync")
        let firstDay = today.addingTimeInterval(-Double(28 * rounds + 1) * 86_400)
        try await joinStepChallenge(syncing, from: firstDay)
        let attesting = try await consentingAccount("bench-ingest-attested")
        try await joinStepChallenge(attesting, from: firstDay, verified: true)
        let copying = try await services.accounts.create(email: nil, role: "user").id
        let baseline = HealthSampleCopyBaseline(services: services)
        let export = try ExportFixture(days: importDays, walksPerDay: importWalksPerDay, today: today)
        defer { export.remove() }
        let clock = ContinuousClock()
        var copy: [Double] = []
        var new: [Double] = []
        var resent: [Double] = []
        var attested: [Double] = []
        var imported: [Double] = []
        var importCopy: [Double] = []
        var stored = 0
        for round in 1...rounds {
            let batch = Self.batch(round: round, count: samples, today: today)
            let rows = try baseline.rows(of: batch, account: copying, zone: .gmt, at: Date())
            guard rows.count == samples else { throw Unexpected("the baseline refused some of the batch") }
            let encoded = baseline.encode(rows)
            let copyTime = try await clock.measure { try await baseline.copy(encoded) }
            try await baseline.removeSamples(of: copying)
            var result: HealthSyncResult?
            let newTime = try await clock.measure {
                result = try await services.healthSync.sync(batch, account: syncing, zone: .gmt)
            }
            guard result?.log.recordsInserted == samples else { throw Unexpected("not every sample was inserted") }
            let resentTime = try await clock.measure {
                result = try await services.healthSync.sync(batch, account: syncing, zone: .gmt)
            }
            guard result?.log.recordsDeduplicated == samples else {
                throw Unexpected("not every re-sent sample was deduplicated")
            }
            let attestedTime = try await clock.measure {
                result = try await services.healthSync.sync(
                    batch, account: attesting, zone: .gmt, proof: ChallengeVerificationBenchmark.proof(of: attesting))
            }
            guard result?.log.recordsInserted == samples else { throw Unexpected("not every sample was inserted") }
            let (importAccount, importStored, importTime, checkTime) = try await measureImport(export)
            stored = importStored
            let importRows = baseline.encode(try await baseline.storedRows(of: importAccount, as: copying))
            let importCopyTime = try await clock.measure { try await baseline.copy(importRows) }
            try await baseline.removeSamples(of: copying)
            copy.append(Double(samples) / copyTime.seconds)
            new.append(Double(samples) / newTime.seconds)
            resent.append(Double(samples) / resentTime.seconds)
            attested.append(Double(samples) / attestedTime.seconds)
            importCopy.append(Double(importStored) / importCopyTime.seconds)
            imported.append(Double(importStored) / importTime.seconds)
            progress(
                String(
                    format: "round %d/%d: COPY %.3f s, sync new %.3f s, re-sent %.3f s, attested %.3f s; import %.2f s"
                        + " (checking the file %.2f s), COPY of its rows %.2f s",
                    round, rounds, copyTime.seconds, newTime.seconds, resentTime.seconds, attestedTime.seconds,
                    importTime.seconds, checkTime.seconds, importCopyTime.seconds))
        }
        let ratios = { (rates: [Double], copy: [Double]) in Self.median(zip(rates, copy).map { $0 / $1 }) }
        return Result(
            samplesPerBatch: samples, rounds: rounds, copyRowsPerSecond: Self.median(copy),
            syncNewSamplesPerSecond: Self.median(new), syncResentSamplesPerSecond: Self.median(resent),
            syncAttestedSamplesPerSecond: Self.median(attested),
            importRecords: export.expected.records, importSamplesStored: stored,
            importRecordsPerSecond: Self.median(imported) * Double(export.expected.records) / Double(max(stored, 1)),
            importSamplesStoredPerSecond: Self.median(imported),
            importCopyRowsPerSecond: Self.median(importCopy),
            peakResidentBytes: ProcessMemory.current()?.peakResidentBytes, newRatio: ratios(new, copy),
            resentRatio: ratios(resent, copy), attestedRatio: ratios(attested, copy),
            importRatio: ratios(imported, importCopy))
    }

    /// A generated export of `days` days ending yesterday, written once for every round.
    struct ExportFixture {
        let directory: URL
        let file: URL
        let expected: AppleHealthExportGenerator.Expected

        init(days: Int, walksPerDay: Int, today: Date) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("hale-bench-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let firstDay = LocalDateText.day(before: today, days: days)
            var generator = AppleHealthExportGenerator(firstDay: firstDay, days: days, dstChange: firstDay)
            generator.extraWalksPerDay = walksPerDay
            file = directory.appendingPathComponent("export.xml")
            expected = try generator.writeXML(to: file)
        }

        func remove() {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// Imports the export into a fresh account; returns the account, the samples stored, the time it took, and the
    /// time before its check of the whole file ended.
    private func measureImport(_ export: ExportFixture) async throws -> (
        account: AccountID, stored: Int, time: Duration, checking: Duration
    ) {
        let account = try await consentingAccount("bench-ingest-import")
        var summary: AppleHealthImport.Summary?
        let clock = ContinuousClock()
        let started = clock.now
        let checked = Mutex<ContinuousClock.Instant?>(nil)
        let time = try await clock.measure {
            summary = try await services.appleHealthImport.run(
                export.file, account: account, zone: .gmt,
                progress: { progress in
                    guard progress.phase == "importing" else { return }
                    checked.withLock { $0 = $0 ?? clock.now }
                })
        }
        guard let summary, summary.recordsRead == export.expected.records, summary.imported > 0 else {
            throw Unexpected("the import did not read every record or stored nothing")
        }
        return (account, summary.imported, time, (checked.withLock { $0 } ?? clock.now) - started)
    }

    private func consentingAccount(_ name: String) async throws -> AccountID {
        let account = try await services.accounts.create(
            email: try AccountEmail("\(name)-\(UUID().uuidString.lowercased())@example.com"), role: "user")
        _ = try await services.healthConsents.grant(
            platform: .apple, permissions: Self.types.map { HealthSampleType(rawValue: $0.0)! }, to: account.id)
        return account.id
    }

    /// A step challenge over every day the rounds touch, joined, so each sync recomputes its progress.
    private func joinStepChallenge(_ account: AccountID, from start: Date, verified: Bool = false) async throws {
        var draft = FitnessChallengeDraft(
            name: "hale bench ingest", type: .steps, goal: 1_000_000, startDate: LocalDate(at: start, in: .gmt),
            endDate: LocalDate(at: Date(), in: .gmt).adding(days: 1), visibility: .private, includesUserEntered: nil)
        draft.verified = verified
        _ = try await services.fitnessChallenges.create(draft, by: account)
    }

    /// `count` samples over the 28 days that end `28 × (round - 1)` days before today, in 15-minute slots, a
    /// watch's and a phone's overlapping, so that source priority has work to do.
    static func batch(round: Int, count: Int, today: Date) -> HealthSyncBatch {
        let samples = (0..<count).map { index in
            let (type, unit) = types[index % types.count]
            let device = (index / types.count) % devices.count
            let daysAgo = (index / (types.count * devices.count)) % 28 + 1 + 28 * (round - 1)
            let slot = (index / (types.count * devices.count * 28)) % 96
            let start = today.addingTimeInterval(Double(-daysAgo * 86_400 + slot * 900 + device * 300))
            return HealthSyncSample(
                id: String(format: "%08X-0000-4000-8000-%012X", round, index), type: type,
                value: Double(10 + index % 90), unit: unit, startDate: start.formatted(.iso8601),
                endDate: (start + 600).formatted(.iso8601), timeZoneOffset: "+00:00",
                sourceBundle: "com.apple.health", deviceModel: devices[device], version: 1)
        }
        return HealthSyncBatch(provider: .healthkit, syncType: .background, samples: samples)
    }

    private static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    struct Unexpected: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = "hale bench ingest: \(description)" }
    }
}

/// `YYYY-MM-DD` of the UTC day `days` before `date`'s.
enum LocalDateText {
    static func day(before date: Date, days: Int) -> String {
        let day = Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) - days
        return LocalDate(dayNumber: day).description
    }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
