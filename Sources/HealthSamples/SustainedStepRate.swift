/// Step rates no person keeps up: more steps in a few consecutive hours than the fastest runners take. A verified
/// fitness challenge leaves out the local days such a window touches: a phone strapped to a fan or a paint shaker
/// makes genuine, attested device samples at a cadence nobody walks or runs for hours.
public enum SustainedStepRate {
    /// At most `steps` in any `hours` consecutive local hours.
    public struct Limit: Sendable, Equatable {
        /// The window's length.
        public let hours: Int
        /// The most steps it may hold.
        public let steps: Double

        /// The limit in words, as a member is told why a day did not count.
        public var reason: String {
            "more than \(Int(steps)) steps in \(hours == 1 ? "an hour" : "\(hours) hours")"
        }
    }

    /// 250 steps a minute for an hour, 217 for two, 200 for six: above an elite runner's cadence kept that long (a
    /// marathon is run at 170 to 190).
    public static let limits = [
        Limit(hours: 1, steps: 15_000), Limit(hours: 2, steps: 26_000), Limit(hours: 6, steps: 72_000),
    ]

    /// The local days touched by a window over a limit, with the first limit broken. Pass the samples of one kind
    /// of device: a watch and a phone count the same walk, and summed they would look twice as fast.
    public static func implausibleDays(of samples: [HealthSample]) -> [LocalDate: Limit] {
        let hours = hourly(samples)
        guard let first = hours.keys.min(), let last = hours.keys.max() else { return [:] }
        let series = (first...last).map { hours[$0] ?? 0 }
        var days: [LocalDate: Limit] = [:]
        for limit in limits {
            var sum = 0.0
            for end in series.indices {
                sum += series[end]
                if end >= limit.hours { sum -= series[end - limit.hours] }
                // A little over the limit is rounding: a sample's value is spread over the hours it spans.
                guard sum > limit.steps + 0.5 else { continue }
                let start = max(0, end - limit.hours + 1)
                for hour in start...end where series[hour] > 0 {
                    let day = LocalDate(dayNumber: floorDivide(first + hour, 24))
                    if days[day] == nil { days[day] = limit }
                }
            }
        }
        return days
    }

    /// Each local hour's steps, numbered from 1970's first local hour, each sample's value spread evenly over its
    /// time in its own offset; a zero-length sample in the hour of its instant.
    static func hourly(_ samples: [HealthSample]) -> [Int: Double] {
        var hours: [Int: Double] = [:]
        for sample in samples where sample.type == .steps {
            let offset = Double(sample.utcOffsetSeconds)
            let lower = sample.start.timeIntervalSince1970 + offset
            let upper = sample.end.timeIntervalSince1970 + offset
            let duration = upper - lower
            guard duration > 0 else {
                hours[Int((lower / 3_600).rounded(.down)), default: 0] += sample.quantity.value
                continue
            }
            var from = lower
            while from < upper {
                let hour = Int((from / 3_600).rounded(.down))
                let to = min(upper, Double(hour + 1) * 3_600)
                hours[hour, default: 0] += sample.quantity.value * ((to - from) / duration)
                from = to
            }
        }
        return hours
    }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}
