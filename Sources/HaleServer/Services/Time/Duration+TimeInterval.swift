import Foundation

extension Duration {
    /// The duration in seconds, as `Date` arithmetic wants it.
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
