import Crypto
import Foundation
import HealthExport
import Logging

/// Apple Health exports uploaded through the API (`POST /api/v1/health/imports`), imported in the background.
///
/// The upload is written to `directory` as it arrives, never held in memory, and queued. Any instance's
/// `processNext` claims the oldest queued import for a lease it renews as it goes, so any number of instances may
/// run it; each needs the same `directory`. After every batch the import's checkpoint is stored in the batch's own
/// transaction, so an instance that stops (or dies) leaves an import that the next claim resumes where it was,
/// counting nothing twice.
public struct HealthImports: Sendable {
    let repository: any HealthImportRepository
    let importer: AppleHealthImport
    let consents: HealthConsents
    let clock: HaleClock
    /// Where uploads are kept until imported (`health.imports.directory`).
    public let directory: URL
    /// The largest upload taken (`health.imports.maxBytes`).
    public let maximumBytes: Int64
    /// How long a claim holds without progress before another instance may take the import over.
    static let lease: Duration = .seconds(120)
    /// Passes an import may fail on a server error (the database gone, a bug) before it fails for good: each retry
    /// waits for the lease of the pass before it to lapse, so a database restarted in the middle costs a pass, not
    /// the import, and an import that cannot succeed is not retried for ever.
    static let maximumAttempts = 5

    /// What a finished pass did.
    public enum Outcome: Sendable, Equatable {
        case idle, completed(UUID), failed(UUID, code: String), released(UUID), claimLost(UUID)
    }

    /// Refuses an upload before its body is read: the account shares no kind of data from Apple Health
    /// (`CONSENT_REQUIRED`), or already has an import queued or running (`CONFLICT`).
    public func checkCanUpload(for account: AccountID) async throws {
        guard try await consents.current(of: account).contains(where: { $0.platform == .apple }) else {
            throw HaleError(
                .consentRequired, status: 403,
                message: "No consent to any kind of data from apple; grant it before importing an export.")
        }
        if let active = try await repository.imports(of: account, limit: 1).first,
            active.status == .queued || active.status == .running
        {
            throw Self.alreadyImporting(active.id)
        }
    }

    /// Where an upload with this id is written while it arrives, and then kept.
    public func files(for id: UUID) -> (partial: URL, complete: URL) {
        (
            directory.appendingPathComponent("\(id.uuidString.lowercased()).upload.part"),
            directory.appendingPathComponent("\(id.uuidString.lowercased()).upload")
        )
    }

    /// Queues the complete upload `id` (at `files(for:).complete`) for the account.
    public func enqueue(_ id: UUID, bytes: Int64, account: AccountID, zone: TimeZone) async throws -> HealthImport {
        let now = clock.now()
        let record = HealthImport(
            id: id, accountId: account, status: .queued, bytes: bytes, timeZone: zone.identifier, createdAt: now,
            updatedAt: now, completedAt: nil, phase: nil, recordsRead: 0, fraction: 0,
            checkpoint: AppleHealthImport.Checkpoint(), errorCode: nil, errorMessage: nil)
        if let active = try await repository.enqueue(record) {
            try? FileManager.default.removeItem(at: files(for: id).complete)
            throw Self.alreadyImporting(active)
        }
        return record
    }

    /// The account's newest imports, newest first.
    public func recent(of account: AccountID, limit: Int) async throws -> [HealthImport] {
        try await repository.imports(of: account, limit: limit)
    }

    /// The account's import.
    public func find(_ id: String, of account: AccountID) async throws -> HealthImport {
        guard let uuid = UUID(uuidString: id), let found = try await repository.find(uuid, of: account) else {
            throw HaleError(.notFound, status: 404, message: "No such import.")
        }
        return found
    }

    /// Claims the oldest queued import and imports it; cancelled, stops after the batch in progress and gives the
    /// import back to the queue. A server error ends the pass and leaves its lease to lapse; the claim after the
    /// `maximumAttempts`th such pass fails the import with `IMPORT_FAILED`.
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
        let progress = ProgressWriter(repository: repository, claimed: claimed, clock: clock)
        do {
            let repository = repository
            let clock = clock
            let summary = try await importer.run(
                file, account: record.accountId, zone: TimeZone(identifier: record.timeZone) ?? .gmt,
                from: record.checkpoint,
                committing: { checkpoint, database in
                    try await repository.checkpoint(claimed, checkpoint, at: clock.now(), on: database)
                },
                progress: { progress.report($0) })
            await progress.flush()
            var checkpoint = record.checkpoint
            checkpoint.summary = summary
            _ = try await repository.finish(
                claimed, as: .completed, checkpoint: checkpoint, error: nil, at: clock.now())
            try? FileManager.default.removeItem(at: file)
            logger.info("health import completed", metadata: ["import": "\(record.id)"])
            return .completed(record.id)
        } catch is CancellationError {
            // In a task of its own: this one is cancelled, and so would be the statement that gives the import back.
            let repository = repository
            let now = clock.now()
            _ = try await Task { try await repository.release(claimed, at: now) }.value
            return .released(record.id)
        } catch is HealthImportClaimLost {
            return .claimLost(record.id)
        } catch let error as ExportError {
            return try await fail(claimed, code: "INVALID_EXPORT", message: error.message)
        } catch let error as HaleError where error.status < 500 {
            return try await fail(claimed, code: error.code.rawValue, message: error.message)
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

    /// Deletes files in `directory` that no queued or running import needs: uploads whose import ended, or whose
    /// account was deleted, after ten minutes (a file just uploaded is queued a moment after it is in place), and
    /// uploads cut off in the middle, after a day (one may still be arriving).
    public func sweepFiles() async throws -> Int {
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

    static func alreadyImporting(_ id: UUID) -> HaleError {
        HaleError(
            .conflict, status: 409,
            message: "An import into this account is queued or running already (\(id.uuidString.lowercased())).")
    }
}

/// Writes an import's progress at most once a second, renewing its claim.
private final class ProgressWriter: @unchecked Sendable {
    private let repository: any HealthImportRepository
    private let claimed: ClaimedHealthImport
    private let clock: HaleClock
    private let lock = NSLock()
    private var last = Date.distantPast
    private var latest: AppleHealthImport.Progress?
    private var writing: Task<Void, Never>?

    init(repository: any HealthImportRepository, claimed: ClaimedHealthImport, clock: HaleClock) {
        self.repository = repository
        self.claimed = claimed
        self.clock = clock
    }

    func report(_ progress: AppleHealthImport.Progress) {
        let now = Date()
        lock.withLock {
            latest = progress
            guard now.timeIntervalSince(last) >= 1, writing == nil else { return }
            last = now
            writing = Task { [self] in
                await write(progress)
                lock.withLock { writing = nil }
            }
        }
    }

    /// Waits for a write in progress and writes the latest progress.
    func flush() async {
        let (pending, progress) = lock.withLock { (writing, latest) }
        await pending?.value
        if let progress { await write(progress) }
    }

    private func write(_ progress: AppleHealthImport.Progress) async {
        _ = try? await repository.progress(
            claimed, phase: progress.phase, recordsRead: progress.recordsRead, fraction: progress.fraction,
            at: clock.now(), lease: HealthImports.lease)
    }
}
