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
    static let defaultBatchSize = 10_000
    /// How much of the file is read between reports of progress while no batch is full.
    static let progressBytes: Int64 = 8 << 20
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
    /// checkpoint it reached in that batch's transaction. The file is read and parsed on a thread of its own, the
    /// next batch while one is stored, so parsing neither waits for the database nor holds a thread that serves
    /// requests. Cancelled, it stops between batches with everything stored so far checkpointed.
    public func run(
        _ url: URL, account: AccountID, zone: TimeZone, from start: Checkpoint = Checkpoint(),
        committing: Committing? = nil, progress: @Sendable (Progress) -> Void = { _ in }
    ) async throws -> Summary {
        let consented = try await consentedTypes(of: account, among: Set(HealthSampleType.allCases))
        // The import's reading starts beside the check, two batches ahead; nothing is stored before the check has
        // read the whole file.
        var parsed = batches(of: url, into: account, zone: zone, from: start, consented: consented)
            .makeAsyncIterator()
        try await check(url, progress: progress)
        var stored = start
        // The batch next in line, whose look for copies synced through HealthKit runs while the one before it is
        // stored: those copies are never samples this import stores, so the two cannot see each other.
        var next: (batch: ParsedBatch, fresh: Task<[HealthSync.Prepared], any Error>)?
        defer { next?.fresh.cancel() }
        func writeNext() async throws {
            guard let (batch, fresh) = next, let checked = batch.checked else { return }
            var from = stored
            from.events = batch.events
            from.summary.add(batch.read)
            try Task.checkCancellation()
            stored = try await write(
                checked, fresh: try await fresh.value, of: account, from: from, committing: committing)
            next = nil
        }
        while let batch = try await parsed.next() {
            if let reached = batch.progress { progress(reached) }
            guard let checked = batch.checked else { continue }
            let fresh = Task { try await withoutSyncedCopies(checked.prepared, of: account) }
            try await writeNext()
            next = (batch, fresh)
        }
        // A cancelled task's stream ends as if the file had: without this, a worker stopped mid-file would report
        // the import complete.
        try Task.checkCancellation()
        try await writeNext()
        return stored.summary
    }

    /// A batch read from the file and checked by the sync, or (without one) how far the file is.
    private struct ParsedBatch: Sendable {
        var checked: HealthSync.CheckedBatch?
        /// What the events read since the last batch came to, its samples not yet stored.
        var read = Summary()
        /// The reader's events from the file's start through this batch's end.
        var events: Int
        var progress: Progress?
    }

    /// The file's batches, parsed and checked by the sync (dates, units, plausibility) on a thread of its own, two
    /// batches ahead; between batches, the progress after each chunk of the file. A batch's counts travel with its
    /// samples, so no checkpoint counts an event whose sample is not stored with it.
    private func batches(
        of url: URL, into account: AccountID, zone: TimeZone, from start: Checkpoint,
        consented: Set<HealthSampleType>
    ) -> OffThreadSequence<ParsedBatch> {
        let (sync, size) = (sync, batchSize)
        return OffThreadSequence(ahead: 2) { yield in
            var reader = AppleHealthExportReader()
            var samples: [ImportedSample] = []
            var batch = ParsedBatch(events: start.events)
            var event = 0
            var recordsRead = start.summary.recordsRead
            var position: ExportFile.Progress?
            var reported: Int64 = 0
            var bytesRead: Int64 { position?.bytesRead ?? 0 }
            var reached: Progress {
                Progress(
                    phase: "importing", recordsRead: recordsRead, bytesRead: bytesRead,
                    fraction: position?.fraction ?? 0)
            }
            func handOn() throws {
                batch.checked = try sync.check(Self.syncBatch(of: samples), account: account, zone: zone)
                batch.progress = reached
                try yield(batch)
                reported = bytesRead
                samples.removeAll(keepingCapacity: true)
                batch = ParsedBatch(events: event)
            }
            try ExportFile.read(url) { data, chunkEnd in
                try reader.feed(data) { next in
                    event += 1
                    guard event > start.events else { return }
                    batch.events = event
                    if case .record = next { recordsRead += 1 }
                    guard let sample = Self.classify(next, into: &batch.read) else { return }
                    guard consented.contains(sample.type) else {
                        batch.read.skippedWithoutConsent[sample.type.rawValue, default: 0] += 1
                        return
                    }
                    samples.append(sample)
                    if samples.count == size { try handOn() }
                }
                position = chunkEnd
                // Progress alone only now and then: each element held takes one of the two places ahead, which
                // batches should have.
                if bytesRead - reported >= Self.progressBytes {
                    try yield(ParsedBatch(events: batch.events, progress: reached))
                    reported = bytesRead
                }
            }
            try reader.finish()
            try handOn()
        }
    }

    /// The samples as the SDK would sync them from HealthKit, identified by their content.
    private static func syncBatch(of samples: [ImportedSample]) -> HealthSyncBatch {
        HealthSyncBatch(
            provider: HealthProvider.healthkit.rawValue, syncType: "initial",
            samples: samples.map { sample in
                HealthSyncBatch.Sample(
                    id: sample.identity, type: sample.typeIdentifier, value: sample.value, unit: sample.unit,
                    startDate: sample.start.iso8601, endDate: sample.end.iso8601, timeZoneOffset: sample.start.offset,
                    sourceBundle: nil, deviceModel: sample.deviceModel, userEntered: sample.userEntered)
            })
    }

    /// Reads the whole file, on a thread of its own, without storing anything: an error here leaves the account as
    /// it was.
    private func check(_ url: URL, progress: @Sendable (Progress) -> Void) async throws {
        let checked = OffThreadSequence<Progress>(ahead: 2) { yield in
            var reader = AppleHealthExportReader(checkingOnly: true)
            var records = 0
            try ExportFile.read(url) { data, position in
                try reader.feed(data) { event in
                    if case .record = event { records += 1 }
                }
                try yield(
                    Progress(
                        phase: "checking", recordsRead: records, bytesRead: position.bytesRead,
                        fraction: position.fraction))
            }
            try reader.finish()
        }
        for try await reached in checked { progress(reached) }
        // Cancelled, the stream ends early: that is not a file checked whole.
        try Task.checkCancellation()
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

    /// Stores a checked batch but for the samples already synced through HealthKit (`fresh` holds the others), and
    /// the checkpoint `before` moved past it with it; returns that checkpoint.
    private func write(
        _ checked: HealthSync.CheckedBatch, fresh samples: [HealthSync.Prepared], of account: AccountID,
        from before: Checkpoint, committing: Committing?
    ) async throws -> Checkpoint {
        var fresh = checked
        fresh.prepared = samples
        var deduplicated = before
        deduplicated.summary.deduplicated += checked.prepared.count - fresh.prepared.count
        for rejection in checked.rejected { deduplicated.summary.rejected[rejection.code, default: 0] += 1 }
        guard !fresh.prepared.isEmpty else {
            if let committing { try await committing(deduplicated, sync.repository.database) }
            return deduplicated
        }
        var alongside: HealthSync.Alongside?
        if let committing {
            let before = deduplicated
            alongside = { @Sendable log, _, database in
                try await committing(Self.reached(before, log: log), database)
            }
        }
        let result = try await sync.store(fresh, account: account, alongside: alongside)
        return Self.reached(deduplicated, log: result.log)
    }

    /// `checkpoint` after a batch's sync stored what its log says.
    private static func reached(_ checkpoint: Checkpoint, log: HealthSyncLog) -> Checkpoint {
        var reached = checkpoint
        reached.summary.imported += log.recordsInserted + log.recordsUpdated
        reached.summary.deduplicated += log.recordsDeduplicated
        return reached
    }

    /// The samples not already stored from a HealthKit sync: those whose type, start, end and value no stored
    /// sample of another identity has.
    private func withoutSyncedCopies(_ samples: [HealthSync.Prepared], of account: AccountID) async throws
        -> [HealthSync.Prepared]
    {
        var fresh: [HealthSync.Prepared] = []
        for (type, ofType) in Dictionary(grouping: samples, by: \.stored.type) {
            guard let first = ofType.map(\.stored.startAt).min(), let last = ofType.map(\.stored.endAt).max() else {
                continue
            }
            let stored = try await sync.repository.syncedSamples(
                of: account, type: type, overlapping: first, last, importedPrefix: ImportedSample.identityPrefix,
                limit: Self.maximumSamplesCompared)
            let synced = Set(stored.map(Self.key))
            fresh += ofType.filter { !synced.contains(Self.key($0.stored)) }
        }
        return fresh.sorted { $0.index < $1.index }
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

    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    private static func microunits(_ value: Double) -> Int64 {
        let scaled = (value * 1_000_000).rounded()
        return scaled.isFinite && abs(scaled) < 9e18 ? Int64(scaled) : 0
    }
}
