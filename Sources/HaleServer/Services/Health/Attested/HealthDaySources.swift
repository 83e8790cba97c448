import Foundation
import HealthSamples

/// Which source counted for each day of one measure, as the statistics count it: a day's value is the larger of the
/// attested uploads' total (seeds 001 and 000) and the synced samples' rollup (seed 004), and within synced samples
/// the highest-ranked source claims its time (`SourcePriority`, `DailyRollup`). The account page shows it beside
/// each day of its chart.
public struct HealthDaySources: Sendable {
    /// What counted on a day.
    public enum Source: Sendable, Equatable {
        /// An attested upload's total, at least as large as the synced samples'.
        case attested
        /// Synced samples, of which this is the highest-ranked source that day.
        case synced(SampleSource)
    }

    /// The measures of the statistics API, and the sample type each is rolled up from.
    public enum Measure: String, Sendable, CaseIterable {
        case steps, distance, calories, duration

        var sampleType: HealthSampleType {
            switch self {
            case .steps: .steps
            case .distance: .distance
            case .calories: .calories
            case .duration: .activeMinutes
            }
        }

        func value(of totals: HealthTotals) -> Int64 {
            switch self {
            case .steps: totals.steps
            case .distance: totals.distanceHundredths
            case .calories: totals.caloriesHundredths
            case .duration: totals.duration
            }
        }
    }

    /// The longest range asked for at once: the page's month.
    public static let maximumDays = 31
    /// The most samples read for one answer; beyond it the answer is a 413, as for a sync's reads.
    static let maximumSamples = 50_000

    let attested: any HealthRepository
    let synced: any HealthSampleStore & HealthRollupStore
    let priorities: SourcePriorities

    /// The source that counted on each day from `start` through `end` with data for `measure`; days without are
    /// absent.
    public func sources(
        of account: AccountID, measure: Measure, from start: LocalDate, through end: LocalDate
    ) async throws -> [LocalDate: Source] {
        guard start <= end, end.dayNumber - start.dayNumber < Self.maximumDays else {
            throw InvalidInput(
                "startDate", .described("The date range must be 1 to \(Self.maximumDays) days, in order"))
        }
        let attestedDays = try await attested.dailyTotals(of: account, from: start, through: end)
        let syncedDays = try await synced.syncedTotals(of: account, from: start, through: end)
        let topSources = try await highestRanked(of: account, type: measure.sampleType, from: start, through: end)
        var sources: [LocalDate: Source] = [:]
        for day in Set(attestedDays.keys).union(syncedDays.keys) {
            let attestedValue = attestedDays[day].map(measure.value) ?? 0
            let syncedValue = syncedDays[day].map { measure.value(of: $0.totals) } ?? 0
            if attestedValue > 0, attestedValue >= syncedValue {
                sources[day] = .attested
            } else if syncedValue > 0, let top = topSources[day] {
                sources[day] = .synced(top)
            }
        }
        return sources
    }

    /// The highest-ranked source among the samples of `type` on each local day (each sample's own offset decides
    /// its days, as in the rollups).
    private func highestRanked(
        of account: AccountID, type: HealthSampleType, from start: LocalDate, through end: LocalDate
    )
        async throws -> [LocalDate: SampleSource]
    {
        // Offsets lie within ±18 h: a day's samples start and end within that of its UTC bounds.
        let margin: TimeInterval = 18 * 3600
        let from = Date(timeIntervalSince1970: TimeInterval(start.dayNumber) * 86_400 - margin)
        let through = Date(timeIntervalSince1970: TimeInterval(end.dayNumber + 1) * 86_400 + margin)
        let samples = try await synced.samples(
            of: account, type: type.rawValue, overlapping: from, through, limit: Self.maximumSamples + 1)
        guard samples.count <= Self.maximumSamples else {
            throw HaleError(
                .payloadTooLarge, .tooLarge,
                message: "These days hold more than \(Self.maximumSamples) samples; ask for fewer days.")
        }
        let priority = priorities.priority(for: type.rawValue)
        var best: [LocalDate: (source: SampleSource, rank: SourcePriority.Rank)] = [:]
        for sample in samples {
            let source = SampleSource(
                bundleID: sample.sourceBundle, deviceModel: sample.deviceModel, deviceType: sample.deviceType,
                isUserEntered: sample.userEntered)
            guard priority.includes(source) else { continue }
            let rank = priority.rank(of: source)
            for day in Self.localDays(of: sample) where day >= start && day <= end {
                if let current = best[day], !(current.rank < rank) { continue }
                best[day] = (source, rank)
            }
        }
        return best.mapValues(\.source)
    }

    /// The local days a sample's interval touches: its start's day through the day of its last instant.
    static func localDays(of sample: StoredHealthSample) -> [LocalDate] {
        let offset = TimeInterval(sample.utcOffsetSeconds)
        func day(_ instant: Date) -> Int {
            Int(((instant.timeIntervalSince1970 + offset) / 86_400).rounded(.down))
        }
        let first = day(sample.startAt)
        let last = sample.endAt > sample.startAt ? day(sample.endAt.addingTimeInterval(-0.001)) : first
        guard last >= first, last - first <= maximumDays + 2 else { return [LocalDate(dayNumber: first)] }
        return (first...last).map(LocalDate.init(dayNumber:))
    }
}
