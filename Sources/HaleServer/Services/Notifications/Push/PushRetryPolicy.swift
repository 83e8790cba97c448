import Foundation

/// When a failed push message is tried again: exponential backoff from `firstDelay`, doubled per attempt, capped at
/// `maxDelay`, with "equal jitter" (half the delay fixed, half random) so instances that failed together spread out.
public struct PushRetryPolicy: Sendable {
    /// Attempts after which a message is dead.
    public var maxAttempts: Int
    /// The delay after the first failed attempt, before jitter.
    public var firstDelay: Duration
    /// The longest delay, before jitter.
    public var maxDelay: Duration
    /// A number in 0...1; injected so tests are deterministic.
    public var random: @Sendable () -> Double

    /// A policy; `random` defaults to the system's generator.
    public init(
        maxAttempts: Int, firstDelay: Duration, maxDelay: Duration,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.maxAttempts = maxAttempts
        self.firstDelay = firstDelay
        self.maxDelay = maxDelay
        self.random = random
    }

    /// The delay before the next attempt, after `attempts` failed ones; `nil` when no attempt is left.
    public func delay(afterAttempts attempts: Int) -> TimeInterval? {
        guard attempts < maxAttempts else { return nil }
        let exponent = Double(max(0, attempts - 1))
        let full = min(maxDelay.timeInterval, firstDelay.timeInterval * pow(2, min(exponent, 32)))
        return full / 2 + full / 2 * min(1, max(0, random()))
    }
}
