import Foundation

/// When an idempotent request is tried again: after a transport failure or a 502, 503 or 504, with exponential
/// backoff and jitter. Requests that are not idempotent are never retried, since a lost answer may hide a success.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    /// The delay before the second attempt; each later one doubles.
    public var firstDelay: Duration

    /// A policy.
    public init(maxAttempts: Int = 3, firstDelay: Duration = .milliseconds(200)) {
        self.maxAttempts = maxAttempts
        self.firstDelay = firstDelay
    }

    /// No retries.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// Whether a status is worth another attempt.
    static func isTransient(_ status: Int) -> Bool { [502, 503, 504].contains(status) }

    /// The delay before attempt `attempt` (2 or later): the doubled delay, between half and all of it.
    func delay(before attempt: Int) -> Duration {
        let full = firstDelay * Int(pow(2, Double(max(0, attempt - 2))))
        return full / 2 + full / 2 * Double.random(in: 0...1)
    }
}
