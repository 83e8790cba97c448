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
///
/// Either pass may pause at a boundary of the file and resume there later (`run(…pausing:)`): a worker shares
/// itself between people that way. Whatever the file, what an import holds is bounded: the reader's limits, batches
/// of `batchSize` small samples, a summary of at most `Summary.maximumNamedTypes` named types, and `limits`.
public struct AppleHealthImport: Sendable {
    /// Records written per sync batch.
    static let defaultBatchSize = 10_000
    /// How much of the file is read between checkpoints while no batch is full.
    static let checkpointBytes: Int64 = 8 << 20
    /// The most stored samples read back to find a batch's duplicates.
    static let maximumSamplesCompared = 200_000

    /// How much one import may read.
    public struct Limits: Sendable, Equatable {
        /// The most bytes of XML (`health.imports.maxXMLBytes`): what a zip's entry inflates to.
        public var maximumXMLBytes: Int64
        /// The most records (`health.imports.maxRecords`).
        public var maximumRecords: Int

        /// Limits.
        public init(maximumXMLBytes: Int64, maximumRecords: Int) {
            self.maximumXMLBytes = maximumXMLBytes
            self.maximumRecords = maximumRecords
        }

        /// No limit but the reader's own.
        public static let none = Limits(maximumXMLBytes: .max, maximumRecords: .max)
    }

    let sync: HealthSync
    /// Records written per sync batch: each batch is one transaction and one checkpoint.
    let batchSize: Int
    let limits: Limits

    init(sync: HealthSync, limits: Limits = .none, batchSize: Int = Self.defaultBatchSize) {
        self.sync = sync
        self.limits = limits
        self.batchSize = batchSize
    }

    /// How far the whole-file check has read.
    public struct CheckProgress: Sendable, Equatable {
        /// A boundary of the file (`AppleHealthExportReader.Event.boundary`) it has checked the file through.
        public var offset: Int64 = 0
        /// Records counted before that boundary.
        public var records = 0
        /// Whether the file was checked whole.
        public var complete = false

        /// Nothing checked yet.
        public init() {}
    }

    /// Where an import stands: the reader's events (records, and elements skipped whole) already counted, where
    /// in the file they end, and what they came to; and how far the check is. An import started from a checkpoint
    /// reads the file from there, so a resumed import counts nothing twice.
    public struct Checkpoint: Sendable, Equatable {
        /// Events of the reader already counted, from the file's start.
        public var events = 0
        /// The boundary of the file those events end at; 0 for a checkpoint stored before boundaries were, whose
        /// events are skipped by reading them again.
        public var offset: Int64 = 0
        /// What those events came to.
        public var summary = Summary()
        /// How far the check is.
        public var check = CheckProgress()

        /// The start of the file.
        public init() {}
    }

    /// Stores a checkpoint: given the transaction that stores the batch it follows, so the two commit together, or
    /// the database outside one when that batch stored nothing.
    public typealias Committing = @Sendable (Checkpoint, UnitOfWork) async throws -> Void

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

    /// How a run ended.
    public enum Outcome: Sendable, Equatable {
        /// The file was imported whole.
        case completed(Summary)
        /// Paused at this checkpoint, which was committed: a later run from it goes on.
        case paused(Checkpoint)
    }

    /// Imports the export at `url` into the account whole; days a record does not carry are taken in `zone`.
    public func run(
        _ url: URL, account: AccountID, zone: TimeZone, from start: Checkpoint = Checkpoint(),
        committing: Committing? = nil, progress: @Sendable (Progress) -> Void = { _ in }
    ) async throws -> Summary {
        let outcome = try await run(
            url, account: account, zone: zone, from: start, committing: committing, pausing: { false },
            progress: progress)
        guard case .completed(let summary) = outcome else {
            preconditionFailure("a run that never pauses completes or throws")
        }
        return summary
    }

    /// Imports the export at `url` into the account, from `start`; days a record does not carry are taken in `zone`.
    ///
    /// After each batch, `committing` (when given) stores the checkpoint it reached in that batch's transaction, and
    /// when `pausing` says so the run stops there. While it checks the file it asks `pausing` after each chunk, and
    /// a pause commits how far the check read. The file is read and parsed on a thread of its own, the next batch
    /// while one is stored, so parsing neither waits for the database nor holds a thread that serves requests.
    /// Cancelled, it stops between batches with everything stored so far checkpointed.
    public func run(
        _ url: URL, account: AccountID, zone: TimeZone, from start: Checkpoint, committing: Committing?,
        pausing: @Sendable () async -> Bool, progress: @Sendable (Progress) -> Void = { _ in }
    ) async throws -> Outcome {
        let consented = try await consentedTypes(of: account, among: Set(HealthSampleType.allCases))
        var stored = start
        if !start.check.complete {
            // A check from the file's start has the import's reading start beside it, two batches ahead; nothing is
            // stored before the check has read the whole file. A resumed check does not: a zip is inflated again
            // from its start up to where the check stopped, and two readers doing so would halve the check's pace.
            let prefetched =
                start.check.offset == 0
                ? batches(of: url, into: account, zone: zone, from: start, consented: consented).makeAsyncIterator()
                : nil
            stored.check = try await check(url, from: start.check, pausing: pausing, progress: progress)
            try await committing?(stored, sync.repository.unitOfWork)
            guard stored.check.complete else { return .paused(stored) }
            let parsed =
                prefetched
                ?? batches(of: url, into: account, zone: zone, from: stored, consented: consented).makeAsyncIterator()
            return try await write(
                parsed, from: stored, of: account, committing: committing, pausing: pausing, progress: progress)
        }
        let parsed = batches(of: url, into: account, zone: zone, from: start, consented: consented)
        return try await write(
            parsed.makeAsyncIterator(), from: stored, of: account, committing: committing, pausing: pausing,
            progress: progress)
    }

    /// Stores the batches `parsed` yields, each with its checkpoint, until they end or `pausing` says so.
    private func write(
        _ parsed: OffThreadSequence<ParsedBatch>.Iterator, from start: Checkpoint, of account: AccountID,
        committing: Committing?, pausing: @Sendable () async -> Bool, progress: @Sendable (Progress) -> Void
    ) async throws -> Outcome {
        var batches = parsed
        var stored = start
        // The batch next in line, whose look for copies synced through HealthKit runs while the one before it is
        // stored: those copies are never samples this import stores, so the two cannot see each other.
        var next: (batch: ParsedBatch, fresh: Task<[HealthSync.Prepared], any Error>)?
        defer { next?.fresh.cancel() }
        func writeNext() async throws {
            guard let (batch, fresh) = next else { return }
            var from = stored
            from.events = batch.events
            from.offset = batch.offset
            from.summary.add(batch.read)
            try Task.checkCancellation()
            stored = try await write(
                batch.checked, fresh: try await fresh.value, of: account, from: from, committing: committing)
            next = nil
        }
        while let batch = try await batches.next() {
            progress(batch.progress)
            let prepared = batch.checked.prepared
            let fresh = Task { try await withoutSyncedCopies(prepared, of: account) }
            let wrote = next != nil
            try await writeNext()
            next = (batch, fresh)
            if wrote, await pausing() { return .paused(stored) }
        }
        // A cancelled task's stream ends as if the file had: without this, a worker stopped mid-file would report
        // the import complete.
        try Task.checkCancellation()
        try await writeNext()
        return .completed(stored.summary)
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
            if let committing { try await committing(deduplicated, sync.repository.unitOfWork) }
            return deduplicated
        }
        var alongside: HealthSync.Alongside?
        if let committing {
            let before = deduplicated
            alongside = { @Sendable log, _, work in
                try await committing(Self.reached(before, log: log), work)
            }
        }
        do {
            let result = try await sync.store(fresh, account: account, alongside: alongside, reporting: false)
            return Self.reached(deduplicated, log: result.log)
        } catch let error as HaleError where error.code == .payloadTooLarge {
            throw HaleError(
                .payloadTooLarge, .tooLarge,
                message: "Part of this export changes days that already hold more stored samples of one kind than this"
                    + " server reads back at once (health.maxSamplesReadPerSync); what came before it is imported.")
        }
    }

    /// `checkpoint` after a batch's sync stored what its log says.
    private static func reached(_ checkpoint: Checkpoint, log: HealthSyncLog) -> Checkpoint {
        var reached = checkpoint
        reached.summary.imported += log.recordsInserted + log.recordsUpdated
        reached.summary.deduplicated += log.recordsDeduplicated
        return reached
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
}
