import Dispatch

/// Runs `async` verifiers to completion from libFuzzer's synchronous callback.
enum Blocking {
    static func run(_ operation: @escaping @Sendable () async -> Void) {
        let finished = DispatchSemaphore(value: 0)
        Task {
            await operation()
            finished.signal()
        }
        finished.wait()
    }
}
