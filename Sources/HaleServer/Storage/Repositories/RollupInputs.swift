import Foundation
import HealthSamples
import Synchronization

/// The samples a rollup reads, made one row at a time as a query hands them on, from whichever thread it runs on,
/// each source kept only as `ranking` tells it apart (`SampleSource.ranked(by:)`): a day's totals may read 100,000
/// samples, and what a client named their devices and apps is not needed to add them up. A row the rules would
/// refuse is left out, as `StoredHealthSample.sample` leaves it out.
final class RollupInputs: Sendable {
    private let type: HealthSampleType
    private let ranking: SourcePriority
    private let samples = Mutex<[HealthSample]>([])

    init(type: HealthSampleType, ranking: SourcePriority) {
        self.type = type
        self.ranking = ranking
    }

    func add(value: Double, start: Date, end: Date, offset: Int, source: SampleSource) {
        guard let quantity = try? HealthQuantity(type: type, canonicalValue: value),
            let sample = try? HealthSample(
                quantity: quantity, start: start, end: end, utcOffsetSeconds: offset, source: source.ranked(by: ranking)
            )
        else {
            return
        }
        samples.withLock { $0.append(sample) }
    }

    /// The samples made so far, handed over.
    var taken: [HealthSample] {
        samples.withLock { samples in
            defer { samples = [] }
            return samples
        }
    }
}
