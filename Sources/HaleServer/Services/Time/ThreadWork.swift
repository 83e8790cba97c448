import Foundation

/// Work started on a thread of its own and awaited without holding the caller's thread: how CPU-bound work runs
/// beside the caller's. `hale` runs Swift concurrency on NIO's event loops, where a child task runs on its parent's
/// loop, so `async let` would run the two one after the other.
package final class ThreadWork<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Value?
    private var waiting: CheckedContinuation<Value, Never>?

    /// Starts `body` on a new thread.
    package init(_ body: @escaping @Sendable () -> Value) {
        Thread.detachNewThread { [self] in finish(body()) }
    }

    /// What the work returned, once it has.
    package var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready: Value? = lock.withLock {
                    if let result { return result }
                    waiting = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    private func finish(_ value: Value) {
        let continuation = lock.withLock {
            result = value
            defer { waiting = nil }
            return waiting
        }
        continuation?.resume(returning: value)
    }
}
