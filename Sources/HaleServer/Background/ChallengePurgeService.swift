import Synchronization
import Vapor

/// Deletes server challenges long after they expired, so the table holds only recent ones.
///
/// It starts when the application boots and stops, waiting for a purge in progress, when it shuts down. Any number
/// of instances may run it: each pass is one `DELETE`, and a row deleted twice is simply gone.
final class ChallengePurgeService: LifecycleHandler, Sendable {
    /// How long after expiry a challenge is kept, so that a late client still gets "expired" rather than "unknown".
    static let retention: Duration = .seconds(86_400)
    private let interval: Duration
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(interval: Duration = .seconds(3600)) {
        self.interval = interval
    }

    func didBootAsync(_ application: Application) async throws {
        let challenges = application.hale.challenges
        let logger = application.logger
        let interval = interval
        task.withLock {
            $0 = Task {
                while !Task.isCancelled {
                    await Self.purge(challenges, logger: logger)
                    try? await Task.sleep(for: interval)
                }
            }
        }
    }

    func shutdownAsync(_ application: Application) async {
        let running = task.withLock { task in
            defer { task = nil }
            return task
        }
        running?.cancel()
        await running?.value
    }

    private static func purge(_ challenges: ServerChallenges, logger: Logger) async {
        do {
            let deleted = try await challenges.purge(olderThan: retention)
            if deleted > 0 {
                logger.debug("purged expired server challenges", metadata: ["count": "\(deleted)"])
            }
        } catch {
            logger.warning("could not purge expired server challenges: \(String(reflecting: error))")
        }
    }
}
