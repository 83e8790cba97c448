import Foundation

/// Timestamps as the documented APIs write them: `2025-07-25T00:29:30.000Z`.
enum ISO8601 {
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    static func string(_ date: Date) -> String {
        style.format(date)
    }
}
