import Foundation

/// The longest sample of each type, from `health.maxSampleDuration`: entries `TYPE:DURATION`, where `TYPE` is a
/// sample type or `*` for every type not named, each at most `HealthSample.longestDuration`.
struct SampleDurations: Sendable, Equatable {
    private let fallback: TimeInterval
    private let byType: [HealthSampleType: TimeInterval]

    /// Reads the entries; without a `*` entry, a type not named may last a day.
    init(_ entries: [String]) throws {
        var durations: [HealthSampleType?: TimeInterval] = [:]
        for entry in entries {
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                throw ConfigError("health.maxSampleDuration entries are TYPE:DURATION, not \"\(entry)\"")
            }
            let type = parts[0] == "*" ? nil : HealthSampleType(rawValue: parts[0])
            guard parts[0] == "*" || type != nil else {
                throw ConfigError("health.maxSampleDuration: \(parts[0]) is not a sample type")
            }
            guard durations[type] == nil else { throw ConfigError("health.maxSampleDuration names \(parts[0]) twice") }
            guard let duration = ConfigDuration.parse(parts[1]), duration > .zero,
                duration.timeInterval <= HealthSample.longestDuration
            else {
                throw ConfigError("health.maxSampleDuration: \(parts[1]) is not a duration from 1s to 7d")
            }
            durations[type] = duration.timeInterval
        }
        fallback = durations[nil] ?? 86_400
        byType = durations.reduce(into: [:]) { byType, entry in
            if let type = entry.key { byType[type] = entry.value }
        }
    }

    /// The longest a sample of `type` may last.
    func longest(_ type: HealthSampleType) -> TimeInterval {
        byType[type] ?? fallback
    }
}
