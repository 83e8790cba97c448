import Foundation
import Testing

@testable import HealthSamples

@Suite("Health samples: daily rollups with source priority")
struct DailyRollupTests {
    static let watch = SampleSource(bundleID: "com.apple.health.watch", deviceModel: "Watch")
    static let phone = SampleSource(bundleID: "com.apple.health.phone", deviceModel: "iPhone")
    static let typedIn = SampleSource(bundleID: "com.apple.Health", deviceModel: "iPhone", isUserEntered: true)
    static let day = LocalDate("2025-06-15")

    /// A sample on 2025-06-15 (UTC) between two clock times in hours; hours past 24 fall on the next day.
    static func sample(
        _ value: Double, _ from: Double, _ to: Double, _ source: SampleSource, _ type: HealthSampleType = .steps
    ) throws -> HealthSample {
        let midnight = Date(timeIntervalSince1970: 1_749_945_600)  // 2025-06-15T00:00:00Z
        return try HealthSample(
            quantity: HealthQuantity(type: type, canonicalValue: value), start: midnight + from * 3600,
            end: midnight + to * 3600, utcOffsetSeconds: 0, source: source)
    }

    static func total(_ samples: [HealthSample], _ priority: SourcePriority = .default, on day: LocalDate? = day)
        -> Double?
    {
        DailyRollup.rollups(of: samples, priority: priority).first { $0.day == day && $0.type == .steps }?.value
    }

    @Test("a watch and a phone seeing the same walk: only the watch counts")
    func fullOverlap() throws {
        let samples = try [Self.sample(1000, 9, 10, Self.watch), Self.sample(800, 9, 10, Self.phone)]
        #expect(Self.total(samples) == 1000)
        #expect(DailyRollup.rollups(of: samples).first?.sampleCount == 1)
    }

    @Test("a partial overlap: the watch, plus the phone's uncovered fraction")
    func partialOverlap() throws {
        let samples = try [Self.sample(1000, 9, 10, Self.watch), Self.sample(1200, 9.5, 10.5, Self.phone)]
        #expect(Self.total(samples) == 1600)
    }

    @Test("the order of the samples does not matter")
    func orderIndependent() throws {
        let samples = try [Self.sample(1200, 9.5, 10.5, Self.phone), Self.sample(1000, 9, 10, Self.watch)]
        #expect(Self.total(samples) == 1600)
    }

    @Test("phone only")
    func phoneOnly() throws {
        #expect(Self.total([try Self.sample(800, 9, 10, Self.phone)]) == 800)
    }

    @Test("a device-recorded sample outranks a user-entered one, even from a watch")
    func userEnteredRanksLowest() throws {
        let typedOnWatch = SampleSource(deviceModel: "Watch", isUserEntered: true)
        let samples = try [
            Self.sample(5000, 9, 10, typedOnWatch), Self.sample(800, 9, 10, Self.phone),
            Self.sample(300, 14, 15, Self.typedIn),
        ]
        #expect(Self.total(samples) == 1100)
    }

    @Test("equal priority: non-overlapping samples add up, overlapping ones both count")
    func equalPriority() throws {
        let apart = try [Self.sample(800, 9, 10, Self.phone), Self.sample(400, 11, 12, Self.phone)]
        #expect(Self.total(apart) == 1200)
        let overlapping = try [Self.sample(800, 9, 10, Self.phone), Self.sample(400, 9.5, 10.5, Self.phone)]
        #expect(Self.total(overlapping) == 1200)
    }

    @Test("excluding user-entered samples: they neither count nor cover")
    func excludeUserEntered() throws {
        let typedOnWatch = SampleSource(deviceModel: "Watch", isUserEntered: true)
        let samples = try [
            Self.sample(5000, 9, 10, typedOnWatch), Self.sample(300, 14, 15, Self.typedIn),
            Self.sample(800, 9.5, 10.5, Self.phone),
        ]
        #expect(Self.total(samples, SourcePriority(excludesUserEntered: true)) == 800)
        let total = try #require(Self.total(samples))
        #expect(total == 3600, "\(total.bitPattern)")
    }

    @Test("a configured app order breaks ties between devices of one class")
    func bundleOrder() throws {
        let pedometer = SampleSource(bundleID: "com.example.pedometer", deviceModel: "iPhone")
        let samples = try [Self.sample(800, 9, 10, Self.phone), Self.sample(900, 9, 10, pedometer)]
        #expect(Self.total(samples, SourcePriority(bundleOrder: ["com.example.pedometer"])) == 900)
        #expect(Self.total(samples) == 1700)
    }

    @Test("Health Connect device types rank a watch above a phone above a scale")
    func healthConnectDeviceTypes() throws {
        let watch = SampleSource(bundleID: "com.samsung.health", deviceModel: "SM-R930", deviceType: "TYPE_WATCH")
        let phone = SampleSource(
            bundleID: "com.google.android.apps.fitness", deviceModel: "Pixel 8", deviceType: "phone")
        let other = SampleSource(bundleID: "com.example.scale")
        #expect(watch.deviceClass == .watch && phone.deviceClass == .phone && other.deviceClass == .other)
        let samples = try [
            Self.sample(100, 9, 10, other), Self.sample(800, 9, 10, phone), Self.sample(1000, 9.5, 10, watch),
        ]
        let total = try #require(Self.total(samples))
        #expect(total == 1400, "\(total.bitPattern)")
    }

    @Test("a lower-ranked sample's uncovered time counts on the day it falls in")
    func uncoveredAcrossMidnight() throws {
        // Phone 22:00–02:00 (400 steps); watch 23:00–01:00 (200 steps).
        let samples = try [Self.sample(400, 22, 26, Self.phone), Self.sample(200, 23, 25, Self.watch)]
        #expect(Self.total(samples) == 200)
        #expect(Self.total(samples, on: Self.day?.adding(days: 1)) == 200)
    }

    @Test("a zero-length sample inside a higher-ranked one is covered; outside, it counts")
    func zeroLength() throws {
        let samples = try [
            Self.sample(1000, 9, 10, Self.watch), Self.sample(50, 9.5, 9.5, Self.phone),
            Self.sample(7, 12, 12, Self.phone),
        ]
        #expect(Self.total(samples) == 1007)
    }

    @Test("types are rolled up separately; oxygen saturation is the day's mean, without priority")
    func typesAndOxygen() throws {
        let samples = try [
            Self.sample(1000, 9, 10, Self.watch), Self.sample(5, 9, 10, Self.phone, .distance),
            Self.sample(96, 3, 3, Self.watch, .oxygenSaturation), Self.sample(98, 3, 3, Self.phone, .oxygenSaturation),
        ]
        let rollups = DailyRollup.rollups(of: samples)
        #expect(rollups.map(\.type) == [.steps, .distance, .oxygenSaturation])
        #expect(rollups.map(\.value) == [1000, 5, 97])
        #expect(rollups.last?.sampleCount == 2)
    }
}
