import Foundation
import HealthExport

extension AppleHealthImport {
    /// The samples not already stored from a HealthKit sync: those whose type, start, end and value no stored
    /// sample of another identity has.
    func withoutSyncedCopies(_ samples: [HealthSync.Prepared], of account: AccountID) async throws
        -> [HealthSync.Prepared]
    {
        var fresh: [HealthSync.Prepared] = []
        for (type, ofType) in Dictionary(grouping: samples, by: \.stored.type) {
            guard let first = ofType.map(\.stored.startAt).min(), let last = ofType.map(\.stored.endAt).max() else {
                continue
            }
            let stored = try await sync.repository.syncedSamples(
                of: account, type: type, overlapping: first, last, importedPrefix: ImportedSample.identityPrefix,
                limit: Self.maximumSamplesCompared)
            let synced = Set(stored.map(Self.key))
            fresh += ofType.filter { !synced.contains(Self.key($0.stored)) }
        }
        return fresh.sorted { $0.index < $1.index }
    }

    private struct ContentKey: Hashable {
        let start: Int64
        let end: Int64
        let microunits: Int64
    }

    private static func key(_ stored: StoredHealthSample) -> ContentKey {
        ContentKey(
            start: milliseconds(stored.startAt), end: milliseconds(stored.endAt), microunits: microunits(stored.value))
    }

    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    private static func microunits(_ value: Double) -> Int64 {
        let scaled = (value * 1_000_000).rounded()
        return scaled.isFinite && abs(scaled) < 9e18 ? Int64(scaled) : 0
    }
}
