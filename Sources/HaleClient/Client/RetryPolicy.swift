import Foundation

/// When an idempotent request is tried again: after a transport failure or a 429, 502, 503 or 504, after the
/// `Retry-After` the server asked for, or else with exponential backoff and jitter. Requests that are not idempotent
/// are never retried, since a lost answer may hide a success.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    /// The delay before the second attempt; each later one doubles.
    public var firstDelay: Duration

    /// The longest `Retry-After` worth waiting for; an answer asking for longer is returned as it is.
    public var longestServerDelay: Duration

    /// A policy.
    public init(
        maxAttempts: Int = 3, firstDelay: Duration = .milliseconds(200), longestServerDelay: Duration = .seconds(30)
    ) {
        self.maxAttempts = maxAttempts
        self.firstDelay = firstDelay
        self.longestServerDelay = longestServerDelay
    }

    /// No retries.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// Whether a status is worth another attempt.
    static func isTransient(_ status: Int) -> Bool { [429, 502, 503, 504].contains(status) }

    /// The delay before attempt `attempt`: what the server asked for, or backoff; nil when the server asked for
    /// longer than `longestServerDelay`.
    func delay(before attempt: Int, serverAsked: Duration?) -> Duration? {
        guard let serverAsked else { return delay(before: attempt) }
        return serverAsked <= longestServerDelay ? serverAsked : nil
    }

    /// The delay before attempt `attempt` (2 or later): the doubled delay, between half and all of it.
    func delay(before attempt: Int) -> Duration {
        let full = firstDelay * Int(pow(2, Double(max(0, attempt - 2))))
        return full / 2 + full / 2 * Double.random(in: 0...1)
    }
}
