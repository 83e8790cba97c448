import Foundation
import HealthSamples

/// The account's health export (`HaleClient.healthExport()`): its daily totals and every synced sample, in the
/// records the server writes. The document holds consent, connections, sync logs and seed 001's attested totals
/// too; `HaleClient.exportHealthData()` gives it whole, to keep.
public struct HealthExport: Sendable, Hashable, Decodable {
    /// The account it is of.
    public let accountId: String
    /// When the server made it.
    public let exportedAt: Date
    /// Each day's total of each type.
    public let dailyTotals: [ExportedDailyTotal]
    /// Every synced sample, oldest first.
    public let samples: [ExportedHealthSample]
}
