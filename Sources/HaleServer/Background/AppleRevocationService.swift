import Synchronization
import Vapor

/// Revokes queued Apple refresh tokens in the background, once a minute. Any number of instances may run it: each
/// row is claimed by one of them at a time.
final class AppleRevocationService: LifecycleHandler, Sendable {
    private let interval: Duration
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(interval: Duration = .seconds(60)) {
        self.interval = interval
    }

    func didBootAsync(_ application: Application) async throws {
        guard let tokens = application.hale.socialSignIn.appleTokens else { return }
        let logger = application.logger
        let interval = interval
        task.withLock {
            $0 = Task {
                while !Task.isCancelled {
                    do {
                        try await tokens.revokeDue(logger: logger)
                    } catch {
                        logger.warning("apple token revocation pass failed: \(String(reflecting: type(of: error)))")
                    }
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
}
