/// One account's total of one sample type on one local day.
///
/// ## What counts
/// For a cumulative type (steps, distance, calories, active minutes, workouts), each sample's value is spread
/// evenly over its interval, and each local day receives the value of the time that falls in it (see
/// `HealthSample.localDayValues()`). When samples of one type overlap in time, `SourcePriority` decides:
/// - A sample counts only for the time **not covered by any sample of strictly higher rank**: its value is
///   multiplied by the fraction of its duration left uncovered, and that part goes to the local days the uncovered
///   time falls in. The highest-ranked samples therefore count in full.
/// - Samples of **equal rank** never take time from each other: overlapping samples from the same kind of source
///   are different activities and are both counted.
/// - A zero-length sample counts in full on the day of its start, unless its instant lies inside a higher-ranked
///   sample; a zero-length sample covers no time of others.
/// - With `excludesUserEntered`, user-entered samples are left out before anything else, so they neither count nor
///   cover.
///
/// Oxygen saturation is a measurement, not an accumulation: its daily value is the mean of the samples that start
/// on that day, with no priority applied (user-entered samples are still left out when excluded).
///
/// Pass every sample that overlaps the days to be computed; a day at the edge of the input may lack the samples
/// that would have covered part of it.
public struct DailyRollup: Hashable, Sendable {
    /// The local day.
    public let day: LocalDate
    /// The sample type.
    public let type: HealthSampleType
    /// The day's total in the type's canonical unit, or for oxygen saturation the day's mean.
    public let value: Double
    /// How many samples contributed to the value (a fully covered sample does not).
    public let sampleCount: Int

    /// A rollup with the given contents.
    public init(day: LocalDate, type: HealthSampleType, value: Double, sampleCount: Int) {
        self.day = day
        self.type = type
        self.value = value
        self.sampleCount = sampleCount
    }

    /// The rollups of `samples` per local day and type, ordered by day, then type.
    ///
    /// The samples are grouped by their positions, never copied: a server rolls up as many as 100,000 at once, twice
    /// (with and without user-entered ones), and a copy of each group was most of what that held.
    public static func rollups(of samples: [HealthSample], priority: SourcePriority = .default) -> [DailyRollup] {
        var byType: [HealthSampleType: [Int]] = [:]
        for index in samples.indices where priority.includes(samples[index].source) {
            byType[samples[index].type, default: []].append(index)
        }
        var rollups: [DailyRollup] = []
        for type in HealthSampleType.allCases {
            guard let positions = byType[type] else { continue }
            rollups +=
                type.isCumulative
                ? totals(of: samples, at: positions, priority: priority) : means(of: samples, at: positions)
        }
        return rollups.sorted { ($0.day, $0.type.order) < ($1.day, $1.type.order) }
    }

    /// Cumulative samples of one type: ranks from highest down, each rank counted outside what higher ranks cover.
    private static func totals(of samples: [HealthSample], at positions: [Int], priority: SourcePriority)
        -> [DailyRollup]
    {
        let type = samples[positions[0]].type
        var sums: [LocalDate: (value: Double, count: Int)] = [:]
        var covered: [ClosedOpenSeconds] = []
        var byRank: [SourcePriority.Rank: [Int]] = [:]
        for position in positions { byRank[priority.rank(of: samples[position].source), default: []].append(position) }
        for rank in byRank.keys.sorted(by: >) {
            let group = byRank[rank] ?? []
            for position in group {
                // The pieces come in time order, so a day the sample has reached already is the last one.
                var last: LocalDate?
                samples[position].splitUncovered(by: covered) { day, value in
                    sums[day, default: (0, 0)].value += value
                    if day != last { sums[day, default: (0, 0)].count += 1 }
                    last = day
                }
            }
            covered = .union(
                of: covered
                    + group.map {
                        ClosedOpenSeconds(
                            lower: samples[$0].start.timeIntervalSince1970, upper: samples[$0].end.timeIntervalSince1970
                        )
                    })
        }
        return sums.map { DailyRollup(day: $0.key, type: type, value: $0.value.value, sampleCount: $0.value.count) }
    }

    /// Measurements of one type: the mean of the samples starting on each day.
    private static func means(of samples: [HealthSample], at positions: [Int]) -> [DailyRollup] {
        let byDay = Dictionary(grouping: positions) { samples[$0].startDay }
        return byDay.map { day, group in
            let mean = group.reduce(0) { $0 + samples[$1].quantity.value } / Double(group.count)
            return DailyRollup(day: day, type: samples[group[0]].type, value: mean, sampleCount: group.count)
        }
    }
}

extension HealthSampleType {
    /// The position in `allCases`, for a stable order of rollups.
    fileprivate var order: Int {
        Self.allCases.firstIndex(of: self) ?? 0
    }
}
