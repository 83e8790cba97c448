import Synchronization
import Vapor

/// Runs a pass of background work at boot and then every `interval`, and stops with the application, waiting for a
/// pass in progress. `makePass` sees the booted application; returning nil leaves the job off.
final class PeriodicJob: LifecycleHandler, Sendable {
    typealias Pass = @Sendable () async -> Void

    private let interval: Duration
    private let makePass: @Sendable (Application) -> Pass?
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(every interval: Duration, _ makePass: @escaping @Sendable (Application) -> Pass?) {
        self.interval = interval
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
    }
}
