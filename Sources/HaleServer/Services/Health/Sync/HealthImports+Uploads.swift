import Foundation

extension HealthImports {
    /// How often an upload in progress notes that it is still arriving.
    static let uploadNoteInterval: TimeInterval = 60

    /// Takes the account's place for an upload before any of it is written: refused when the account shares no
    /// kind of data from Apple Health (`CONSENT_REQUIRED`), when the size it declares is over the limit or would
    /// leave the disk below its floor (or the disk is below it already), or when the account already has an import
    /// uploading, queued or running (`CONFLICT`). Returns the import's id.
    public func reserveUpload(for account: AccountID, zone: TimeZone, declaredBytes: Int64?) async throws -> UUID {
        guard try await consents.current(of: account).contains(where: { $0.platform == .apple }) else {
            throw HaleError(
                .consentRequired, .forbidden,
                message:
                    "No health permissions for any kind of data from apple: grant consent before importing an export."
            )
        }
        if let declaredBytes, declaredBytes > maximumBytes { throw tooLarge }
        try requireFreeSpace(for: max(0, declaredBytes ?? 0))
        let now = clock.now()
        let record = HealthImport(
            id: UUID(), accountId: account, status: .uploading, bytes: 0, timeZone: zone.identifier, createdAt: now,
            updatedAt: now, completedAt: nil, phase: nil, recordsRead: 0, fraction: 0,
            checkpoint: AppleHealthImport.Checkpoint(), errorCode: nil, errorMessage: nil)
        if let active = try await repository.reserve(record) { throw Self.alreadyImporting(active) }
        return record.id
    }

    /// Notes that the upload is still arriving, so its place is kept.
    public func noteUpload(_ id: UUID, of account: AccountID) async throws {
        try await repository.touchUpload(id, of: account, at: clock.now())
    }

    /// Queues the complete upload `id` (at `files(for:).complete`); `CONFLICT` if its place was given up meanwhile.
    public func queueUpload(_ id: UUID, bytes: Int64, of account: AccountID) async throws -> HealthImport {
        guard let queued = try await repository.queueUpload(id, of: account, bytes: bytes, at: clock.now()) else {
            try? FileManager.default.removeItem(at: files(for: id).complete)
            throw HaleError(.conflict, .conflict, message: "This upload took too long; upload the export again.")
        }
        return queued
    }

    /// Gives up an upload that was refused or cut off: its place, and whatever it wrote.
    public func abandonUpload(_ id: UUID, of account: AccountID) async {
        try? FileManager.default.removeItem(at: files(for: id).partial)
        try? FileManager.default.removeItem(at: files(for: id).complete)
        // In a task of its own: the request that called this may be cancelled, and its statements with it.
        let repository = repository
        try? await Task { try await repository.abandonUpload(id, of: account) }.value
    }

    /// Where an upload with this id is written while it arrives, and then kept.
    public func files(for id: UUID) -> (partial: URL, complete: URL) {
        (
            directory.appendingPathComponent("\(id.uuidString.lowercased()).upload.part"),
            directory.appendingPathComponent("\(id.uuidString.lowercased()).upload")
        )
    }

    /// Refuses to write `bytes` more when that would leave less than `minimumFreeBytes` free in `directory`
    /// (507, `INSUFFICIENT_STORAGE`).
    public func requireFreeSpace(for bytes: Int64) throws {
        guard minimumFreeBytes > 0, let free = FreeSpace.bytes(at: directory) else { return }
        let (left, overflow) = free.subtractingReportingOverflow(bytes)
        guard overflow || left < minimumFreeBytes else { return }
        throw HaleError(
            .insufficientStorage, .insufficientStorage,
            message: "This server has no room for the export now; try again later.")
    }

    var tooLarge: HaleError {
        HaleError(
            .payloadTooLarge, .tooLarge, message: "An export may be at most \(maximumBytes) bytes on this server.")
    }

    static func alreadyImporting(_ id: UUID) -> HaleError {
        HaleError(
            .conflict, .conflict,
            message: "An import into this account is uploading, queued or running already"
                + " (\(id.uuidString.lowercased())).")
    }
}

/// The space left for an unprivileged writer in a file system.
enum FreeSpace {
    /// Free bytes for unprivileged users on the file system that holds `url`, or would hold it once made; nil when
    /// it cannot be read.
    static func bytes(at url: URL) -> Int64? {
        var stats = statvfs()
        var path = url.standardizedFileURL.path
        while statvfs(path, &stats) != 0 {
            guard errno == ENOENT, path != "/" else { return nil }
            path = (path as NSString).deletingLastPathComponent
        }
        let (total, overflow) = Int64(clamping: stats.f_bavail).multipliedReportingOverflow(
            by: Int64(clamping: stats.f_frsize))
        return overflow ? .max : total
    }
}
