import Crypto
import Foundation
import HealthExport
import Logging

/// Apple Health exports uploaded through the API (`POST /api/v1/health/imports`), imported in the background.
///
/// An upload first takes the account's place (one import per account is uploading, queued or running), then is
/// written to `directory` as it arrives, never held in memory, and queued. Any instance's `processNext` claims the
/// import that has waited longest, for a lease it renews as it goes, so any number of instances may run it; each
/// needs the same `directory`. After every batch the import's checkpoint is stored in the batch's own transaction,
/// so an instance that stops (or dies) leaves an import that the next claim resumes where it was, counting nothing
/// twice. An import that has had its turn (`timeSlice`) while another account's waits goes back to the queue
/// behind it: one account's large file cannot hold the worker from everyone else.
public struct HealthImports: Sendable {
    let repository: any HealthImportRepository
    let importer: AppleHealthImport
    let consents: HealthConsents
    let clock: HaleClock
    /// Where uploads are kept until imported (`health.imports.directory`).
    public let directory: URL
    /// The largest upload taken (`health.imports.maxBytes`).
    public let maximumBytes: Int64
    /// The free space an upload must leave in `directory` (`health.imports.minFreeBytes`).
    public let minimumFreeBytes: Int64
    /// How long an import runs while another account's waits, before it gives way (`health.imports.timeSlice`).
    let timeSlice: Duration
    /// How long a claim holds without progress before another instance may take the import over.
    static let lease: Duration = .seconds(120)
    /// How long an upload's place is kept without word from it (an upload notes its progress every
    /// `uploadNoteInterval`): its instance died in the middle.
    static let uploadIdleLimit: TimeInterval = 15 * 60
    /// Passes an import may fail on a server error (the database gone, a bug) before it fails for good: each retry
    /// waits for the lease of the pass before it to lapse, so a database restarted in the middle costs a pass, not
    /// the import, and an import that cannot succeed is not retried for ever.
    static let maximumAttempts = 5

    init(
        repository: any HealthImportRepository, importer: AppleHealthImport, consents: HealthConsents,
        clock: HaleClock, directory: URL, maximumBytes: Int64, minimumFreeBytes: Int64 = 0,
        timeSlice: Duration = .seconds(30)
    ) {
        self.repository = repository
        self.importer = importer
        self.consents = consents
        self.clock = clock
        self.directory = directory
        self.maximumBytes = maximumBytes
        self.minimumFreeBytes = minimumFreeBytes
        self.timeSlice = timeSlice
    }

    /// What a finished pass did.
    public enum Outcome: Sendable, Equatable {
        case idle, completed(UUID), failed(UUID, code: String), released(UUID), claimLost(UUID), paused(UUID)
    }

    /// The account's newest imports, newest first.
    public func recent(of account: AccountID, limit: Int) async throws -> [HealthImport] {
        try await repository.imports(of: account, limit: limit)
    }

    /// The account's import.
    public func find(_ id: String, of account: AccountID) async throws -> HealthImport {
        guard let uuid = UUID(uuidString: id), let found = try await repository.find(uuid, of: account) else {
            throw HaleError(.notFound, .notFound, message: "No such import.")
        }
        return found
    }

    /// Claims the import that has waited longest and imports it, for its turn; cancelled, stops after the batch in
    /// progress and gives the import back to the queue. A server error ends the pass and leaves its lease to lapse;
    /// the claim after the `maximumAttempts`th such pass fails the import with `IMPORT_FAILED`.
    public func processNext(logger: Logger) async throws -> Outcome {
        guard let claimed = try await repository.claimNext(at: clock.now(), lease: Self.lease) else { return .idle }
        let record = claimed.record
        let file = files(for: record.id).complete
        guard record.attempts <= Self.maximumAttempts else {
            return try await fail(
                claimed, code: "IMPORT_FAILED",
                message: "The import stopped on a server error \(Self.maximumAttempts) times. What it stored stays;"
                    + " upload the export again to import the rest.")
        }
        guard FileManager.default.fileExists(atPath: file.path) else {
            return try await fail(claimed, code: "FILE_MISSING", message: "The uploaded file is gone from this server.")
        }
        let progress = ImportProgressWriter(repository: repository, claimed: claimed, clock: clock)
        let turn = ImportTurn(slice: timeSlice) { [repository, clock] in
            (try? await repository.othersWaiting(besides: record.accountId, at: clock.now())) ?? false
        }
        do {
            let repository = repository
            let clock = clock
            let outcome = try await importer.run(
                file, account: record.accountId, zone: TimeZone(identifier: record.timeZone) ?? .gmt,
                from: record.checkpoint,
                committing: { checkpoint, work in
                    try await repository.checkpoint(claimed, checkpoint, at: clock.now(), in: work)
                },
                pausing: { await turn.isOver() }, progress: { progress.report($0) })
            await progress.flush()
            switch outcome {
            case .paused:
                guard try await repository.release(claimed, at: clock.now(), requeued: true) else {
                    return .claimLost(record.id)
                }
                logger.debug("health import gave way to another account's", metadata: ["import": "\(record.id)"])
                return .paused(record.id)
            case .completed(let summary):
                var checkpoint = record.checkpoint
                checkpoint.summary = summary
                checkpoint.check.complete = true
                _ = try await repository.finish(
                    claimed, as: .completed, checkpoint: checkpoint, error: nil, at: clock.now())
                try? FileManager.default.removeItem(at: file)
                logger.info("health import completed", metadata: ["import": "\(record.id)"])
                return .completed(record.id)
            }
        } catch is CancellationError {
            // In a task of its own: this one is cancelled, and so would be the statement that gives the import back.
            let repository = repository
            let now = clock.now()
            _ = try await Task { try await repository.release(claimed, at: now, requeued: false) }.value
            return .released(record.id)
        } catch is HealthImportClaimLost {
            return .claimLost(record.id)
        } catch let error as ExportError {
            return try await fail(claimed, code: "INVALID_EXPORT", message: error.message)
        } catch let error as HaleError where error.kind.isCallersFault {
            return try await fail(claimed, code: error.code.rawValue, message: error.message)
        } catch let error as InvalidInput {
            return try await fail(claimed, code: HaleError.Code.invalidRequest.rawValue, message: error.message)
        }
    }

    private func fail(_ claimed: ClaimedHealthImport, code: String, message: String) async throws -> Outcome {
        let current = try await repository.find(claimed.record.id, of: claimed.record.accountId)
        _ = try await repository.finish(
            claimed, as: .failed, checkpoint: current?.checkpoint ?? claimed.record.checkpoint,
            error: (code, message), at: clock.now())
        try? FileManager.default.removeItem(at: files(for: claimed.record.id).complete)
        return .failed(claimed.record.id, code: code)
    }

    /// Gives up the places of uploads that stopped arriving (their instance died), then deletes files in
    /// `directory` that no import needs: uploads whose import ended, or whose account was deleted, after ten
    /// minutes (a file just uploaded is queued a moment after it is in place), and uploads cut off in the middle,
    /// after a day.
    public func sweepFiles() async throws -> Int {
        for id in try await repository.abandonUploads(idleSince: clock.now().addingTimeInterval(-Self.uploadIdleLimit))
        {
            try? FileManager.default.removeItem(at: files(for: id).partial)
        }
        let keep = try await repository.unfinishedIDs()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let now = clock.now()
        var removed = 0
        for name in names {
            let age: TimeInterval
            if name.hasSuffix(".upload") {
                age = 600
            } else if name.hasSuffix(".upload.part") {
                age = 86_400
            } else {
                continue
            }
            guard let id = UUID(uuidString: String(name.prefix(36))), !keep.contains(id) else { continue }
            let url = directory.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
            guard let modified, now.timeIntervalSince(modified) > age else { continue }
            if (try? FileManager.default.removeItem(at: url)) != nil { removed += 1 }
        }
        return removed
    }
}

/// One import's turn at the worker: over once it has run `slice` while another account's import waits. Whether
/// one waits is asked at most once a slice, so a worker alone with one import never asks between its batches.
///
/// The slice starts at the first boundary the import reaches, not when the turn is given: a resumed zip is inflated
/// again from its start up to where it paused, and a slice spent on that would leave a large import one batch a turn.
actor ImportTurn {
    private let slice: Duration
    private let othersWaiting: @Sendable () async -> Bool
    private var nextLook: ContinuousClock.Instant?

    init(slice: Duration, othersWaiting: @escaping @Sendable () async -> Bool) {
        self.slice = slice
        self.othersWaiting = othersWaiting
    }

    func isOver() async -> Bool {
        guard let nextLook else {
            nextLook = .now + slice
            return false
        }
        guard ContinuousClock.now >= nextLook else { return false }
        if await othersWaiting() { return true }
        self.nextLook = .now + slice
        return false
    }
}
