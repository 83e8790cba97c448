import Foundation

/// The plausibility limits health data from a client is checked against: one table for every route that takes it
/// (the sample sync, seed 000's daily totals, seed 001's attested days, fitness challenge goals).
///
/// A limit per type says how much one local day can hold and how long one sample may last; a window around now says
/// when a sample may start. A sample's value may be at most a day's maximum for each day its length takes up, so a
/// sample that passes can never make one day's share of it implausible on its own.
public struct HealthPlausibility: Sendable, Equatable {
    /// One type's limits.
    public struct Limit: Sendable, Equatable {
        /// For a cumulative type, the most one local day can hold, in the type's canonical unit; for a measurement
        /// (oxygen saturation), the largest value.
        public var maximumPerDay: Double
        /// The longest one sample may last, in seconds; at most `HealthSample.longestDuration`.
        public var longestSample: TimeInterval

        /// A limit.
        public init(maximumPerDay: Double, longestSample: TimeInterval) {
            self.maximumPerDay = maximumPerDay
            self.longestSample = longestSample
        }
    }

    /// The limits by type; a type without an entry has `HealthPlausibility.standard`'s.
    public var limits: [HealthSampleType: Limit]
    /// How long before now a sample may start, in seconds.
    public var oldestStart: TimeInterval
    /// How long after now a sample may start, in seconds: a phone's clock may run ahead, and a day ahead of the
    /// server's is still today somewhere on Earth.
    public var newestStart: TimeInterval

    /// A table.
    public init(limits: [HealthSampleType: Limit], oldestStart: TimeInterval, newestStart: TimeInterval) {
        self.limits = limits
        self.oldestStart = oldestStart
        self.newestStart = newestStart
    }

    /// Seed 001's daily limits (100,000 steps, 250 km, 15,000 kcal, a day of activity), samples of at most a day
    /// (two for workouts), starting within the last 366 days (a sync looks back at most 365) and at most a day ahead.
    public static let standard = HealthPlausibility(
        limits: [
            .steps: Limit(maximumPerDay: 100_000, longestSample: 86_400),
            .distance: Limit(maximumPerDay: 250_000, longestSample: 86_400),
            .calories: Limit(maximumPerDay: 15_000, longestSample: 86_400),
            .activeMinutes: Limit(maximumPerDay: 86_400, longestSample: 86_400),
            .workouts: Limit(maximumPerDay: 86_400, longestSample: 2 * 86_400),
            .oxygenSaturation: Limit(maximumPerDay: 100, longestSample: 86_400),
        ],
        oldestStart: 366 * 86_400, newestStart: 86_400)

    /// `type`'s limits.
    public func limit(for type: HealthSampleType) -> Limit {
        limits[type] ?? Self.standard.limits[type] ?? Limit(maximumPerDay: 0, longestSample: 0)
    }

    /// The largest value a sample of `type` lasting `duration` seconds may have: a day's maximum for each day, or
    /// part of one, its length takes up; for a measurement, the largest value whatever its length.
    public func maximumValue(of type: HealthSampleType, lasting duration: TimeInterval) -> Double {
        let limit = limit(for: type)
        guard type.isCumulative else { return limit.maximumPerDay }
        return limit.maximumPerDay * max(1, (duration / 86_400).rounded(.up))
    }

    /// What is implausible about a sample at `now`, if anything: its length, its start outside the window, or its
    /// value. The first limit it breaks, in that order.
    public func implausibility(of sample: HealthSample, at now: Date) -> Implausibility? {
        let limit = limit(for: sample.type)
        let duration = sample.end.timeIntervalSince(sample.start)
        guard duration <= limit.longestSample else { return .lastsTooLong(longest: limit.longestSample) }
        guard sample.start.timeIntervalSince(now) >= -oldestStart else { return .startsTooEarly(oldest: oldestStart) }
        guard sample.start.timeIntervalSince(now) <= newestStart else { return .startsTooLate(newest: newestStart) }
        guard sample.quantity.value <= maximumValue(of: sample.type, lasting: duration) else {
            return .valueTooHigh(sample.type, maximumPerDay: limit.maximumPerDay)
        }
        return nil
    }

    /// What is implausible about one local day's total of `type`, in its canonical unit, if anything.
    public func implausibility(ofDayTotal value: Double, of type: HealthSampleType) -> Implausibility? {
        let maximum = limit(for: type).maximumPerDay
        return value <= maximum ? nil : .valueTooHigh(type, maximumPerDay: maximum)
    }

    /// What is implausible about a goal of `type` over `days` local days, if anything: more than those days can
    /// hold.
    public func implausibility(ofGoal goal: Double, of type: HealthSampleType, overDays days: Int) -> Implausibility? {
        let largest = maximumValue(of: type, lasting: Double(days) * 86_400)
        return goal <= largest
            ? nil : .goalTooHigh(type, largest: largest, maximumPerDay: limit(for: type).maximumPerDay)
    }

    /// Checks a sample at `now`: its length (`DURATION_TOO_LONG`), its start within the window (`SAMPLE_TOO_OLD`,
    /// `SAMPLE_IN_FUTURE`) and its value (`VALUE_IMPLAUSIBLE`).
    public func check(_ sample: HealthSample, at now: Date) throws(HealthSampleError) {
        switch implausibility(of: sample, at: now) {
        case nil: return
        case .lastsTooLong(let longest): throw .durationTooLong(limit: Self.describe(seconds: longest))
        case .startsTooEarly(let oldest): throw .tooOld(limit: Self.describe(seconds: oldest))
        case .startsTooLate(let newest): throw .inFuture(limit: Self.describe(seconds: newest))
        case .valueTooHigh(let type, let maximum), .goalTooHigh(let type, _, let maximum):
            throw .valueImplausible(limit: Self.describe(maximumPerDay: maximum, of: type))
        }
    }

    /// Whether `day` lies in the window of days a client may send data for, seen from `today`: no earlier than the
    /// oldest start allows, and at most one day ahead.
    public func allows(day: LocalDate, today: LocalDate) -> Bool {
        let oldestDays = Int((oldestStart / 86_400).rounded(.up))
        return day >= today.adding(days: -oldestDays) && day <= today.adding(days: 1)
    }

    /// `type`'s limit in words, such as `100000 steps a day` or `100 %`.
    public func describe(maximumOf type: HealthSampleType) -> String {
        Self.describe(maximumPerDay: limit(for: type).maximumPerDay, of: type)
    }

    /// A daily maximum of `type` in words, such as `100000 steps a day` or `100 %`.
    public static func describe(maximumPerDay maximum: Double, of type: HealthSampleType) -> String {
        let amount = JavaScriptNumber.string(maximum)
        let unit = type == .steps ? "steps" : type.canonicalUnit.rawValue
        return type.isCumulative ? "\(amount) \(unit) a day" : "\(amount) \(unit)"
    }

    /// A length of time in the largest whole unit that writes it: `366 days`, `12 hours`, `90 seconds`.
    public static func describe(seconds: TimeInterval) -> String {
        let units: [(TimeInterval, String)] = [(86_400, "day"), (3_600, "hour"), (60, "minute"), (1, "second")]
        for (size, name) in units where seconds >= size && seconds.truncatingRemainder(dividingBy: size) == 0 {
            let count = Int(seconds / size)
            return "\(count) \(name)\(count == 1 ? "" : "s")"
        }
        return "\(JavaScriptNumber.string(seconds)) seconds"
    }
}
