import HealthSamples

/// What verified fitness challenges count of a run of days: the verified samples' totals by the class of device
/// that recorded them, each class rolled up apart by the same priority rules; how many samples a verified challenge
/// leaves out and why; and the days whose verified steps no person could take (`SustainedStepRate`).
struct VerifiedRollups {
    private var totals: [DeviceClass: [LocalDate: Double]] = [:]
    private var counts: [LocalDate: Counts] = [:]
    private var implausible: [LocalDate: SustainedStepRate.Limit] = [:]

    private struct Counts {
        var userEntered = 0
        var unattested = 0
        var verified: [DeviceClass: Int] = [:]
    }

    /// Rolls up `samples`' verified ones for `days`, and counts the samples that start on them.
    init(of samples: [HealthSample], on days: Set<LocalDate>, ranking priority: SourcePriority) {
        var verifiedByClass: [DeviceClass: [HealthSample]] = [:]
        for sample in samples {
            let source = sample.source
            if source.isVerified { verifiedByClass[source.deviceClass, default: []].append(sample) }
            let day = sample.startDay
            guard days.contains(day) else { continue }
            if source.isUserEntered {
                counts[day, default: Counts()].userEntered += 1
            } else if !source.isAttested {
                counts[day, default: Counts()].unattested += 1
            } else {
                counts[day, default: Counts()].verified[source.deviceClass, default: 0] += 1
            }
        }
        for (deviceClass, group) in verifiedByClass {
            var verifiedOnly = priority
            verifiedOnly.verifiedFrom = [deviceClass]
            for rollup in DailyRollup.rollups(of: group, priority: verifiedOnly)
            where rollup.sampleCount > 0 && days.contains(rollup.day) {
                totals[deviceClass, default: [:]][rollup.day] = rollup.value
            }
            for (day, limit) in SustainedStepRate.implausibleDays(of: group) where days.contains(day) {
                if implausible[day] == nil { implausible[day] = limit }
            }
        }
    }

    /// The day's rollup, given its totals with and without user-entered samples.
    func value(of day: LocalDate, all: Double, excludingUserEntered: Double) -> HealthRollupValue {
        let counted = counts[day] ?? Counts()
        return HealthRollupValue(
            all: all, excludingUserEntered: excludingUserEntered, verified: totals.compactMapValues { $0[day] },
            userEnteredSamples: counted.userEntered, unattestedSamples: counted.unattested,
            verifiedSamples: counted.verified, implausibleRate: implausible[day]?.reason)
    }
}
