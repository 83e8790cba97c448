import Foundation

/// The source of the current time. Services take it as a parameter so tests can move time.
public struct HaleClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock that reads `now` on every call.
    public init(_ now: @escaping @Sendable () -> Date) {
        self.read = now
    }

    /// The wall clock.
    public static let system = HaleClock { Date() }

    /// The current time, truncated to whole milliseconds, the precision Hale stores and returns.
    public func now() -> Date {
        Self.wholeMilliseconds(read())
    }

    /// `date` truncated to whole milliseconds. Truncating in reference-date terms (as `Date` keeps time) makes the
    /// value the nearest double to a whole millisecond, which SQLite's microsecond rounding reads back unchanged.
    public static func wholeMilliseconds(_ date: Date) -> Date {
        let milliseconds = (date.timeIntervalSinceReferenceDate * 1000).rounded(.down)
        return Date(timeIntervalSinceReferenceDate: milliseconds / 1000)
    }
}
