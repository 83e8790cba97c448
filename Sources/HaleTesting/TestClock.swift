import Foundation
import HaleServer
import Synchronization

/// A clock that stands still until a test moves it.
public final class TestClock: Sendable {
    private let current: Mutex<Date>

    /// A clock standing at `start`.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) {
        current = Mutex(start)
    }

    /// The clock to hand to Hale.
    public var clock: HaleClock {
        HaleClock { self.current.withLock { $0 } }
    }

    /// Moves the clock forward, or back by a negative `duration`: an instance whose clock runs behind another's.
    public func advance(_ duration: Duration) {
        current.withLock { $0 = $0.addingTimeInterval(duration.timeInterval) }
    }
}
