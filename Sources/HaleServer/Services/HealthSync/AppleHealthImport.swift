import Foundation
import HealthExport
import HealthSamples

/// Imports a person's Apple Health export (`export.zip` or `export.xml`) as HealthKit samples, through the sample
/// sync, so consent, plausibility, the sample window, source priority, local days, rollups and challenge progress
/// apply exactly as to a sync.
///
/// The file is read twice, in chunks: first whole, to refuse a file that is not a complete export before anything is
/// stored; then again, writing batches. A record's identity is its content (`ImportedSample.identity`), so importing
/// an archive twice stores nothing twice; a record whose type, start, end and value match a sample already synced
/// through HealthKit (with its UUID) is counted as deduplicated and not stored again. Types the person has not
/// consented to share from Apple Health are skipped, and counted.
public struct AppleHealthImport: Sendable {
    /// Records written per sync batch.
    static let defaultBatchSize = 5_000
    /// The most stored samples read back to find a batch's duplicates.
    static let maximumSamplesCompared = 200_000

    let sync: HealthSync
    /// Records written per sync batch: each batch is one transaction and one checkpoint.
    let batchSize: Int

    init(sync: HealthSync, batchSize: Int = Self.defaultBatchSize) {
        self.sync = sync
        self.batchSize = batchSize
    }

    /// What an import did.
    public struct Summary: Sendable, Equatable, Codable {
        /// `Record`s and `Workout`s read.
        public var recordsRead = 0
        /// Samples stored.
        public var imported = 0
        /// Samples already stored: from an earlier import, or synced through HealthKit.
        public var deduplicated = 0
        /// Records of types Hale has no samples of (and correlations and activity summaries), by type.
        public var skippedByType: [String: Int] = [:]
        /// Records of types the person does not share from Apple Health, by Hale's type.
        public var skippedWithoutConsent: [String: Int] = [:]
        /// Records refused, by reason (`malformed startDate`, the sync's codes such as `OUT_OF_WINDOW`).
        public var rejected: [String: Int] = [:]

        /// Adds another summary's counts to this one's.
        mutating func add(_ other: Summary) {
            recordsRead += other.recordsRead
            imported += other.imported
            deduplicated += other.deduplicated
            skippedByType.merge(other.skippedByType, uniquingKeysWith: +)
            skippedWithoutConsent.merge(other.skippedWithoutConsent, uniquingKeysWith: +)
            rejected.merge(other.rejected, uniquingKeysWith: +)
        }
    }

    /// Where an import stands: the reader's events (records, and elements skipped whole) already counted, and what
    /// they came to. An import started from a checkpoint skips those events, so a resumed import counts nothing
    /// twice.
    public struct Checkpoint: Sendable, Equatable, Codable {
        /// Events of the reader already counted, from the file's start.
        public var events = 0
        /// What those events came to.
        public var summary = Summary()

        /// The start of the file.
        public init() {}
    }

    /// Stores a checkpoint: given the database of the transaction that stores the batch it follows, so the two
    /// commit together, or a plain database when that batch stored nothing.
    public typealias Committing = @Sendable (Checkpoint, HaleDatabase) async throws -> Void

    /// How far an import is.
    public struct Progress: Sendable {
        /// Which pass: checking the file, or importing it.
        public let phase: String
        /// Records read so far in this pass.
        public let recordsRead: Int
        /// Bytes of XML read so far in this pass.
        public let bytesRead: Int64
        /// The share of the file done in this pass.
        public let fraction: Double
    }

    /// Imports the export at `url` into the account; days a record does not carry are taken in `zone`.
    ///
    /// From `start`, the events it counted are skipped. After each batch, `committing` (when given) stores the
    /// checkpoint it reached in that batch's transaction. The next batch is read while one is stored, and batches
    /// are stored one after another, in order. Cancelled, it stops between batches with everything stored so far
    /// checkpointed.
    public func run(
        _ url: URL, account: AccountID, zone: TimeZone, from start: Checkpoint = Checkpoint(),
        committing: Committing? = nil, progress: @Sendable (Progress) -> Void = { _ in }
    ) async throws -> Summary {
        let types = try await check(url, progress: progress)
        let consented = try await consentedTypes(of: account, among: types)
        let target = Target(account: account, zone: zone, committing: committing)
        return try await withThrowingTaskGroup(of: Checkpoint.self) { storing in
            // What the batches stored so far reached, and what was read since the last batch.
            var stored = start
            var read = Summary()
            var writing = false
            func write(_ batch: [ImportedSample], through events: Int) async throws {
                if writing, let reached = try await storing.next() { stored = reached }
                var from = stored
                from.events = events
                from.summary.add(read)
                read = Summary()
                try Task.checkCancellation()
                storing.addTask { try await self.write(batch, to: target, from: from) }
                writing = true
            }
            var reader = AppleHealthExportReader()
            var batch: [ImportedSample] = []
            var event = 0
            for try await (data, position) in ExportFile.chunks(url) {
                var events: [AppleHealthExportReader.Event] = []
                try reader.feed(data) { events.append($0) }
                for next in events {
                    event += 1
                    guard event > start.events else { continue }
                    guard let sample = Self.classify(next, into: &read) else { continue }
                    guard consented.contains(sample.type) else {
                        read.skippedWithoutConsent[sample.type.rawValue, default: 0] += 1
                        continue
                    }
                    batch.append(sample)
                    if batch.count == batchSize {
                        try await write(batch, through: event)
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                progress(
                    Progress(
                        phase: "importing", recordsRead: stored.summary.recordsRead + read.recordsRead,
                        bytesRead: position.bytesRead, fraction: position.fraction))
            }
            try reader.finish()
            try await write(batch, through: max(event, start.events))
            if let reached = try await storing.next() { stored = reached }
            return stored.summary
        }
    }

    /// Reads the whole file without storing anything: an error here leaves the account as it was. Returns the
    /// types of the samples it holds.
    private func check(_ url: URL, progress: @Sendable (Progress) -> Void) async throws -> Set<HealthSampleType> {
        var reader = AppleHealthExportReader(typesOnly: true)
        var types: Set<HealthSampleType> = []
        var records = 0
        for try await (data, position) in ExportFile.chunks(url) {
            try reader.feed(data) { event in
                guard case .record(let record) = event else { return }
                records += 1
                if let type = HealthSampleType(parsing: record.type) { types.insert(type) }
            }
            progress(
                Progress(
                    phase: "checking", recordsRead: records, bytesRead: position.bytesRead, fraction: position.fraction)
            )
        }
        try reader.finish()
        return types
    }

    private func consentedTypes(of account: AccountID, among types: Set<HealthSampleType>) async throws
        -> Set<HealthSampleType>
    {
        var consented: Set<HealthSampleType> = []
        for type in types {
            do {
                try await sync.consents.require(type, from: .apple, of: account)
                consented.insert(type)
            } catch let error as HaleError where error.code == .consentRequired {
                continue
            }
        }
        return consented
    }

    /// The sample a record makes, or `nil` after counting why it makes none.
    private static func classify(_ event: AppleHealthExportReader.Event, into summary: inout Summary)
        -> ImportedSample?
    {
        switch event {
        case .skipped(let name):
            summary.skippedByType[name, default: 0] += 1
            return nil
        case .record(let record):
            summary.recordsRead += 1
            switch ImportedSample.from(record) {
            case .success(let sample):
                return sample
            case .failure(.type(let type)):
                summary.skippedByType[type, default: 0] += 1
            case .failure(.malformed(let attribute)):
                summary.rejected["malformed \(attribute)", default: 0] += 1
            }
            return nil
        }
    }

    /// Where a batch goes.
    private struct Target: Sendable {
        let account: AccountID
        let zone: TimeZone
        let committing: Committing?
    }

    /// Stores `samples`, and the checkpoint `from` moved past them with them; returns that checkpoint.
    private func write(_ samples: [ImportedSample], to target: Target, from before: Checkpoint) async throws
        -> Checkpoint
    {
        let fresh = try await withoutSyncedCopies(samples, of: target.account)
        var deduplicated = before
        deduplicated.summary.deduplicated += samples.count - fresh.count
        guard !fresh.isEmpty else {
            if let committing = target.committing { try await committing(deduplicated, sync.repository.database) }
            return deduplicated
        }
        let batch = HealthSyncBatch(
            provider: HealthProvider.healthkit.rawValue, syncType: "initial",
            samples: fresh.map { sample in
                HealthSyncBatch.Sample(
                    id: sample.identity, type: sample.typeIdentifier, value: sample.value, unit: sample.unit,
                    startDate: sample.start.iso8601, endDate: sample.end.iso8601, timeZoneOffset: sample.start.offset,
                    sourceBundle: nil, deviceModel: sample.deviceModel, userEntered: sample.userEntered)
            })
        var alongside: HealthSync.Alongside?
        if let committing = target.committing {
            let before = deduplicated
            alongside = { @Sendable log, rejected, database in
                try await committing(Self.reached(before, log: log, rejected: rejected), database)
            }
        }
        let result = try await sync.sync(batch, account: target.account, zone: target.zone, alongside: alongside)
        return Self.reached(deduplicated, log: result.log, rejected: result.rejected)
    }

    /// `checkpoint` after a batch's sync stored what its log says and refused what `rejected` holds.
    private static func reached(
        _ checkpoint: Checkpoint, log: HealthSyncLog, rejected: [HealthSyncResult.Rejection]
    ) -> Checkpoint {
        var reached = checkpoint
        reached.summary.imported += log.recordsInserted + log.recordsUpdated
        reached.summary.deduplicated += log.recordsDeduplicated
        for rejection in rejected { reached.summary.rejected[rejection.code, default: 0] += 1 }
        return reached
    }

    /// The samples not already stored from a HealthKit sync: those whose type, start, end and value no stored
    /// sample of another identity has.
    private func withoutSyncedCopies(_ samples: [ImportedSample], of account: AccountID) async throws
        -> [ImportedSample]
    {
        var fresh: [ImportedSample] = []
        for (type, ofType) in Dictionary(grouping: samples, by: \.type) {
            guard let first = ofType.map(\.start.date).min(), let last = ofType.map(\.end.date).max() else { continue }
            let stored = try await sync.repository.syncedSamples(
                of: account, type: type.rawValue, overlapping: first, last,
                importedPrefix: ImportedSample.identityPrefix,
                limit: Self.maximumSamplesCompared)
            let synced = Set(stored.map(Self.key))
            fresh += ofType.filter { sample in
                guard let key = Self.key(of: sample) else { return true }
                return !synced.contains(key)
            }
        }
        return fresh
    }

    private struct ContentKey: Hashable {
        let start: Int64
        let end: Int64
        let microunits: Int64
    }

    private static func key(_ stored: StoredHealthSample) -> ContentKey {
        ContentKey(
            start: milliseconds(stored.startAt), end: milliseconds(stored.endAt), microunits: microunits(stored.value))
    }

    private static func key(of sample: ImportedSample) -> ContentKey? {
        guard let unit = HealthUnit(parsing: sample.unit) else { return nil }
        let value = unit.canonicalValue(of: sample.value, percentScale: HealthProvider.healthkit.percentScale)
        return ContentKey(
            start: milliseconds(sample.start.date), end: milliseconds(sample.end.date), microunits: microunits(value))
    }

    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    private static func microunits(_ value: Double) -> Int64 {
        let scaled = (value * 1_000_000).rounded()
        return scaled.isFinite && abs(scaled) < 9e18 ? Int64(scaled) : 0
    }
}
