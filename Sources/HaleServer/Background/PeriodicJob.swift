import Synchronization
import Vapor

/// Runs a pass of background work at boot and then every `interval`, and stops with the application, waiting for a
/// pass in progress. `makePass` sees the booted application; returning nil leaves the job off.
///
/// A job made with `finalPassAtShutdown` runs one more pass as the application shuts down, after the loop stopped
/// and before the database closes, even if the application never booted: for work held in memory that must not be
/// lost, such as uses of tokens not yet written.
final class PeriodicJob: LifecycleHandler, Sendable {
    typealias Pass = @Sendable () async -> Void

    private let interval: Duration
    private let finalPassAtShutdown: Bool
    private let makePass: @Sendable (Application) -> Pass?
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(
        every interval: Duration, finalPassAtShutdown: Bool = false,
        _ makePass: @escaping @Sendable (Application) -> Pass?
    ) {
        self.interval = interval
        self.finalPassAtShutdown = finalPassAtShutdown
        self.makePass = makePass
    }

    func didBootAsync(_ application: Application) async throws {
        guard let pass = makePass(application) else { return }
        let interval = interval
        task.withLock {
            $0 = Task {
                while !Task.isCancelled {
                    await pass()
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
        // Outside the cancelled task, so the pass's own awaits are not cancelled.
        if finalPassAtShutdown, let pass = makePass(application) {
            await pass()
        }
    }
}
