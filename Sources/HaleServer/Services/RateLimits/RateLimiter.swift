import Foundation
import Synchronization

/// One budget's counters in this instance's memory: a count-min sketch per fixed window, emptied as the next window
/// starts. Windows follow one another from the first request the budget sees.
///
/// Memory is the sketch's and never grows; a check costs one hash and a few counters whatever the number of clients.
/// Nothing is ever evicted, so a flood of new keys cannot reset a client's count. A sketch can only overestimate: a
/// client is never let past its budget, and an honest one is refused early only when the keys counted in one window
/// outnumber what the sketch was sized for (about `width × limit` requests: with the default width, 65,536 times the
/// budget). Under such a flood the budget fails closed for everyone until the window ends.
public final class RateLimiter: Sendable {
    /// The budget's rule.
    public let rule: RateLimit
    private let width: Int
    private let depth: Int
    private let state = Mutex(State())

    private struct State {
        /// Made at the first request, so that a budget no request reaches costs nothing.
        var sketch: CountMinSketch?
        /// When the first window started; `nil` until the first request.
        var origin: Date?
        /// Which window the sketch counts, numbered from `origin`.
        var window: Int64 = 0
    }

    /// Counters 4 deep and 65,536 wide by default: 1 MiB. `width` must be a power of two.
    public init(_ rule: RateLimit, width: Int = 1 << 16, depth: Int = 4) {
        self.rule = rule
        self.width = width
        self.depth = depth
    }

    /// The bytes the counters take once the first request arrives, whatever the number of clients after it.
    public var memoryBytes: Int {
        state.withLock { $0.sketch?.memoryBytes } ?? width * depth * MemoryLayout<UInt32>.stride
    }

    /// Counts one request for `key` at `now`: `nil` if it is within the budget, or else the whole seconds, at least
    /// one, until the window ends. A refused request is not counted.
    public func admit(_ key: some Hashable, at now: Date) -> Int? {
        let length = rule.window.timeInterval
        let limit = UInt32(rule.limit)
        return state.withLock { state in
            let origin = state.origin ?? now
            state.origin = origin
            let window = Int64((now.timeIntervalSince(origin) / length).rounded(.down))
            var sketch = state.sketch.take() ?? CountMinSketch(width: width, depth: depth)
            defer { state.sketch = sketch }
            if window != state.window {
                sketch.removeAll()
                state.window = window
            }
            guard sketch.count(key, below: limit) else {
                let end = origin.addingTimeInterval(Double(window + 1) * length)
                return max(1, Int(end.timeIntervalSince(now).rounded(.up)))
            }
            return nil
        }
    }
}
