import Foundation

/// A normalised sample: a quantity over a time interval, where the device was in time, and where it came from.
public struct HealthSample: Hashable, Sendable {
    /// What was measured, in the canonical unit.
    public let quantity: HealthQuantity
    /// When the sample starts.
    public let start: Date
    /// When the sample ends; equal to `start` for an instantaneous sample.
    public let end: Date
    /// The device's offset from UTC, in seconds, at the sample's start; it decides the sample's local days.
    public let utcOffsetSeconds: Int
    /// Where the sample came from.
    public let source: SampleSource

    /// The longest any sample may last, whatever the configuration: splitting a sample into local days costs one
    /// step per day, so this bounds the work one sample can cause, stored or new.
    public static let longestDuration: TimeInterval = 7 * 86_400

    /// The instants a sample's times may take: the years 1 to 9999, the range `LocalDate` and ISO 8601 write.
    public static let representableInstants =
        Double(
            LocalDate.dayNumber(year: 1, month: 1, day: 1) * 86_400)...Double(
            LocalDate.dayNumber(year: 10_000, month: 1, day: 1) * 86_400 - 1)

    /// A sample, refused when a time lies outside the years 1 to 9999 (`DATE_OUT_OF_RANGE`), when it ends before it
    /// starts (`END_BEFORE_START`), when it lasts longer than `longestDuration` (`DURATION_TOO_LONG`), or when its
    /// offset is beyond ±18 hours (`UTC_OFFSET_OUT_OF_RANGE`).
    public init(
        quantity: HealthQuantity, start: Date, end: Date, utcOffsetSeconds: Int, source: SampleSource = SampleSource()
    ) throws(HealthSampleError) {
        let instants = Self.representableInstants
        guard instants.contains(start.timeIntervalSince1970), instants.contains(end.timeIntervalSince1970) else {
            throw .dateOutOfRange
        }
        guard end >= start else { throw .endBeforeStart }
        guard end.timeIntervalSince(start) <= Self.longestDuration else { throw .durationTooLong(limit: "7 days") }
        guard utcOffsetSeconds.magnitude <= 18 * 3600 else { throw .utcOffsetOutOfRange }
        self.quantity = quantity
        self.start = start
        self.end = end
        self.utcOffsetSeconds = utcOffsetSeconds
        self.source = source
    }

    /// The sample's type.
    public var type: HealthSampleType { quantity.type }

    /// The local day of the sample's start, in the sample's own offset.
    public var startDay: LocalDate {
        LocalDate(dayNumber: Self.dayNumber(at: start.timeIntervalSince1970, offset: utcOffsetSeconds))
    }

    /// The sample's value by local day, in day order.
    ///
    /// A cumulative sample (every type but oxygen saturation) that spans local midnight is split across the days in
    /// proportion to its time in each. Local days are computed with the sample's own offset — the one at its
    /// start — for its whole length: the client sends no time zone, so a daylight-saving change inside a sample
    /// does not move its later midnights. (Only a sample that crosses a change and then a midnight, almost a day
    /// long, is affected, by at most the size of the change.) The interval is half-open: a sample ending exactly at
    /// midnight belongs wholly to the day before. A zero-length sample, and every oxygen saturation sample, goes
    /// wholly to the day of its start.
    public func localDayValues() -> [(day: LocalDate, value: Double)] {
        var values: [(day: LocalDate, value: Double)] = []
        guard type.isCumulative, end > start else { return [(startDay, quantity.value)] }
        splitUncovered(by: []) { day, value in values.append((day, value)) }
        return values
    }

    /// Calls `add` with the value of each local day's part of this sample not inside `covered`, proportional to
    /// time. `covered` is sorted, disjoint, half-open intervals in seconds since 1970. A zero-length sample is whole
    /// unless its instant is covered.
    func splitUncovered(by covered: [ClosedOpenSeconds], add: (LocalDate, Double) -> Void) {
        let lower = start.timeIntervalSince1970
        let upper = end.timeIntervalSince1970
        let duration = upper - lower
        guard duration > 0 else {
            if !covered.contains(instant: lower) { add(startDay, quantity.value) }
            return
        }
        for piece in covered.gaps(in: ClosedOpenSeconds(lower: lower, upper: upper)) {
            var from = piece.lower
            var day = Self.dayNumber(at: from, offset: utcOffsetSeconds)
            while from < piece.upper {
                let midnight = Double(day + 1) * 86_400 - Double(utcOffsetSeconds)
                let to = min(piece.upper, midnight)
                add(LocalDate(dayNumber: day), quantity.value * ((to - from) / duration))
                from = to
                day += 1
            }
        }
    }

    private static func dayNumber(at seconds: Double, offset: Int) -> Int {
        Int(((seconds + Double(offset)) / 86_400).rounded(.down))
    }
}
