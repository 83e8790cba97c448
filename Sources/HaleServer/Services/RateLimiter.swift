import Foundation
import NIOConcurrencyHelpers

/// A request budget: at most `limit` requests per `window`, written `30/1m` in configuration.
public struct RateLimit: Sendable, Equatable {
    /// Requests allowed per window.
    public let limit: Int
    /// The window.
    public let window: Duration

    /// Parses `COUNT/DURATION`, such as `30/1m`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let limit = Int(parts[0]), limit > 0, let window = ConfigDuration.parse(parts[1]),
            window > .zero
        else {
            return nil
        }
        self.limit = limit
        self.window = window
    }
}

/// Fixed-window request counters, kept in this instance's memory: with several instances behind a load balancer,
/// each allows the full budget. Lockout after failed signatures, which is what stops guessing, lives in the database.
public final class RateLimiter: Sendable {
    private struct Window {
        let start: Date
        var count: Int
    }

    private let windows = NIOLockedValueBox([String: Window]())
    /// Above this many keys, windows that have ended are dropped, so memory stays bounded under a flood of keys.
    private let pruneThreshold: Int

    /// An empty limiter.
    public init(pruneThreshold: Int = 100_000) {
        self.pruneThreshold = pruneThreshold
    }

    /// Counts one request under `key`; returns `nil` if it is within `rule`, or the seconds until the window ends.
    public func admit(_ key: String, rule: RateLimit, at now: Date) -> Int? {
        let window = rule.window.timeInterval
        return windows.withLockedValue { windows in
            if windows.count >= pruneThreshold {
                windows = windows.filter { now.timeIntervalSince($0.value.start) < window }
            }
            var current =
                windows[key].flatMap { now.timeIntervalSince($0.start) < window ? $0 : nil }
                ?? Window(start: now, count: 0)
            guard current.count < rule.limit else {
                return max(1, Int((window - now.timeIntervalSince(current.start)).rounded(.up)))
            }
            current.count += 1
            windows[key] = current
            return nil
        }
    }
}
