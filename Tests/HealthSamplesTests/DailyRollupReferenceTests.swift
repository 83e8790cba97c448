import Foundation
import Testing

@testable import HealthSamples

/// `DailyRollup` against a brute-force reading of its documented rule, minute by minute, on random samples.
@Suite("Health samples: daily rollups against a minute-by-minute reference")
struct DailyRollupReferenceTests {
    /// xorshift64, so every run sees the same samples.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
    }

    static let sources = [
        SampleSource(deviceModel: "Watch"), SampleSource(bundleID: "a", deviceModel: "iPhone"),
        SampleSource(bundleID: "b", deviceModel: "iPhone"), SampleSource(bundleID: "c"),
        SampleSource(deviceModel: "Watch", isUserEntered: true), SampleSource(isUserEntered: true),
    ]

    /// The rule read literally: each minute of a sample counts unless a strictly higher-ranked sample covers it.
    static func reference(_ samples: [HealthSample], _ priority: SourcePriority) -> [LocalDate: Double] {
        let included = samples.filter { priority.includes($0.source) }
        var totals: [LocalDate: Double] = [:]
        for sample in included {
            let rank = priority.rank(of: sample.source)
            let higher = included.filter { priority.rank(of: $0.source) > rank }
            func isCovered(_ instant: Date) -> Bool {
                higher.contains { $0.start <= instant && instant < $0.end }
            }
            let minutes = Int(sample.end.timeIntervalSince(sample.start) / 60)
            guard minutes > 0 else {
                if !isCovered(sample.start) { totals[sample.startDay, default: 0] += sample.quantity.value }
                continue
            }
            for minute in 0..<minutes {
                let instant = sample.start + Double(minute * 60)
                guard !isCovered(instant) else { continue }
                let day = LocalDate(at: instant, in: TimeZone(secondsFromGMT: sample.utcOffsetSeconds) ?? .current)
                totals[day, default: 0] += sample.quantity.value / Double(minutes)
            }
        }
        return totals
    }

    @Test("random overlapping samples from ranked sources", arguments: [false, true])
    func randomSamples(excludesUserEntered: Bool) throws {
        var random = Generator(state: 0x2545_F491_4F6C_DD1D)
        let priority = SourcePriority(bundleOrder: ["b"], excludesUserEntered: excludesUserEntered)
        let origin = Date(timeIntervalSince1970: 1_749_945_600)
        for _ in 0..<50 {
            var samples: [HealthSample] = []
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let start = origin + Double(Int.random(in: 0..<(48 * 60), using: &random) * 60)
                let minutes = Int.random(in: 0...3, using: &random) == 0 ? 0 : Int.random(in: 1...600, using: &random)
                samples.append(
                    try HealthSample(
                        quantity: HealthQuantity(
                            type: .steps, canonicalValue: Double(Int.random(in: 0...5000, using: &random))),
                        start: start, end: start + Double(minutes * 60), utcOffsetSeconds: 7200,
                        source: Self.sources.randomElement(using: &random) ?? SampleSource()))
            }
            let expected = Self.reference(samples, priority)
            let rollups = DailyRollup.rollups(of: samples, priority: priority)
            for day in Set(expected.keys).union(rollups.map(\.day)) {
                let value = rollups.first { $0.day == day }?.value ?? 0
                #expect(abs(value - (expected[day] ?? 0)) < 1e-6, "\(day): \(value) vs \(expected[day] ?? 0)")
            }
        }
    }
}
