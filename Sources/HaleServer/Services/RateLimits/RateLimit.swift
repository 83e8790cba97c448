import Foundation

/// A request budget: at most `limit` requests per `window`, written `30/1m` in configuration.
public struct RateLimit: Sendable, Equatable {
    /// Requests allowed per window.
    public let limit: Int
    /// The window.
    public let window: Duration

    /// Parses `COUNT/DURATION`, such as `30/1m`; the count is at most 2³² − 1 and the window at least a second.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let limit = Int(parts[0]), (1...Int(UInt32.max)).contains(limit),
            let window = ConfigDuration.parse(parts[1]), window >= .seconds(1)
        else {
            return nil
        }
        self.limit = limit
        self.window = window
    }
}
