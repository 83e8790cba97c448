#if canImport(HealthKit)
    import Foundation
    import HealthKit

    /// Reads what Hale syncs from HealthKit: daily totals through statistics collection queries, and each quantity's
    /// added and deleted samples through anchored queries. The app needs the HealthKit entitlement and
    /// `NSHealthShareUsageDescription`. `HKHealthStore` may be used from any thread, as Apple documents, whether or
    /// not an SDK marks it Sendable.
    @available(iOS 15.4, watchOS 8.5, *)
    public final class HealthKitReader: @unchecked Sendable {
        private let store: HKHealthStore

        /// A reader over `store`; an app keeps one store for its lifetime.
        public init(store: HKHealthStore = HKHealthStore()) {
            self.store = store
        }

        /// Asks to read every type in `HealthKitQuantity.all`. HealthKit never says whether reading was refused: a
        /// refused type reads as empty.
        public func requestAuthorization() async throws {
            guard HKHealthStore.isHealthDataAvailable() else {
                throw PlatformAdapterError.unavailable("Health data is not available on this device")
            }
            let types = Set(HealthKitQuantity.all.map { Self.type(of: $0) as HKObjectType })
            try await store.requestAuthorization(toShare: [], read: types)
        }

        /// The totals of each day from the one holding `from` through the one holding `to`, days starting at midnight
        /// in `calendar`'s time zone.
        public func dailyTotals(from: Date, to: Date, calendar: Calendar = .current) async throws
            -> [(day: Date, totals: DailyHealthTotals)]
        {
            let interval = DailyHealthTotals.healthKitInterval(from: from, to: to, calendar: calendar)
            var sums: [HealthKitQuantity: [Date: Double]] = [:]
            for quantity in DailyHealthTotals.healthKitQuantities {
                sums[quantity] = try await dailySums(of: quantity, in: interval)
            }
            return DailyHealthTotals.days(in: interval, calendar: calendar, healthKitSums: sums)
        }

        /// The samples of `quantity` added and deleted since `anchor` (everything, when `nil`), with the anchor to pass
        /// next time.
        public func changes(of quantity: HealthKitQuantity, since anchor: [UInt8]?) async throws -> HealthKitChanges {
            let descriptor = HKAnchoredObjectQueryDescriptor(
                predicates: [.quantitySample(type: Self.type(of: quantity), predicate: nil)],
                anchor: try Self.unarchive(anchor))
            let result = try await descriptor.result(for: store)
            let unit = HKUnit(from: quantity.unitString)
            return HealthKitChanges(
                samples: result.addedSamples.map { Self.sample($0, of: quantity, unit: unit) },
                deletedIDs: result.deletedObjects.map { $0.uuid.uuidString },
                anchor: Array(
                    try NSKeyedArchiver.archivedData(withRootObject: result.newAnchor, requiringSecureCoding: true)))
        }

        private func dailySums(of quantity: HealthKitQuantity, in interval: DateInterval) async throws -> [Date: Double]
        {
            let inInterval = HKQuery.predicateForSamples(
                withStart: interval.start, end: interval.end, options: .strictStartDate)
            let descriptor = HKStatisticsCollectionQueryDescriptor(
                predicate: .quantitySample(type: Self.type(of: quantity), predicate: inInterval),
                options: .cumulativeSum,
                anchorDate: interval.start, intervalComponents: DateComponents(day: 1))
            let unit = HKUnit(from: quantity.unitString)
            var sums: [Date: Double] = [:]
            for statistics in try await descriptor.result(for: store).statistics() {
                sums[statistics.startDate] = statistics.sumQuantity()?.doubleValue(for: unit)
            }
            return sums
        }

        private static func sample(_ sample: HKQuantitySample, of quantity: HealthKitQuantity, unit: HKUnit)
            -> HealthSyncSample
        {
            quantity.sample(
                uuid: sample.uuid.uuidString, value: sample.quantity.doubleValue(for: unit), start: sample.startDate,
                end: sample.endDate, timeZoneMetadata: sample.metadata?[HKMetadataKeyTimeZone] as? String,
                deviceTimeZone: .current, sourceBundle: sample.sourceRevision.source.bundleIdentifier,
                deviceModel: sample.device?.model,
                userEnteredMetadata: sample.metadata?[HKMetadataKeyWasUserEntered] as? Bool)
        }

        private static func type(of quantity: HealthKitQuantity) -> HKQuantityType {
            HKQuantityType(HKQuantityTypeIdentifier(rawValue: quantity.identifier))
        }

        private static func unarchive(_ anchor: [UInt8]?) throws -> HKQueryAnchor? {
            guard let anchor else { return nil }
            return try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: Data(anchor))
        }
    }
#endif
