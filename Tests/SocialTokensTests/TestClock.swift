import Foundation

/// A clock the tests move by hand, starting at a fixed reference time.
///
/// `@unchecked Sendable`: every access to `current` holds `lock`. (`Mutex` needs macOS 15; the package supports 14.)
final class TestClock: @unchecked Sendable {
    /// 2025-06-15 15:06:40 UTC: any fixed time works; a fixed one makes failures replayable.
    static let reference = Date(timeIntervalSince1970: 1_750_000_000)

    private let lock = NSLock()
    private var current = TestClock.reference

    /// The current test time.
    func now() -> Date {
        lock.withLock { current }
    }

    /// Moves the clock forward by `seconds`.
    func advance(seconds: TimeInterval) {
        lock.withLock { current.addTimeInterval(seconds) }
    }
}
