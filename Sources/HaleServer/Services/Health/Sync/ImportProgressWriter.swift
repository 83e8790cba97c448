import Foundation

/// Writes an import's progress at most once a second, renewing its claim.
final class ImportProgressWriter: @unchecked Sendable {
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
