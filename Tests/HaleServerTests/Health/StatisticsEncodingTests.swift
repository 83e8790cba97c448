import Foundation
import NIOCore
import Testing

@testable import HaleServer

/// The statistics body is written by hand; Foundation's JSON coders are the independent reference.
@Suite("Health: the statistics body and the packed per-day read")
struct StatisticsEncodingTests {
    private struct Totals: Codable, Equatable {
        let date: String
        let steps: Int64
        let duration: Int64
        let calories: Double
        let distance: Double
    }

    private struct Body: Codable, Equatable {
        let items: [Totals]
        let summary: Totals
    }

    private static func reference(_ label: String, _ totals: HealthTotals) -> Totals {
        Totals(
            date: label, steps: totals.steps, duration: totals.duration, calories: totals.calories,
            distance: totals.distance)
    }

    @Test("hundredths are written as JSONEncoder writes the Double")
    func hundredthsMatchJSONEncoder() throws {
        let values: [Int64] = [
            0, 1, 5, 10, 11, 50, 99, 100, 101, 105, 110, 1_000, 10_000, 1_234_567, 1_500_000, -5, -250, 99_999_999,
        ]
        for value in values {
            let written = [UInt8](unsafeUninitializedCapacity: 32) { bytes, count in
                var writer = JSONBytes(bytes: UnsafeMutableRawBufferPointer(bytes))
                writer.append(hundredths: value)
                count = writer.count
            }
            let expected = String(decoding: try JSONEncoder().encode([Double(value) / 100]), as: UTF8.self)
            #expect("[\(String(decoding: written, as: UTF8.self))]" == expected, "hundredths \(value)")
        }
    }

    @Test("integers are written as JSONEncoder writes them")
    func integersMatchJSONEncoder() throws {
        for value: Int64 in [0, 7, 9, 10, 99, 100, 86_400, 100_000, 1_000_000_007, -1, -10, .max, .min] {
            let written = [UInt8](unsafeUninitializedCapacity: 32) { bytes, count in
                var writer = JSONBytes(bytes: UnsafeMutableRawBufferPointer(bytes))
                writer.append(integer: value)
                count = writer.count
            }
            let expected = String(decoding: try JSONEncoder().encode([value]), as: UTF8.self)
            #expect("[\(String(decoding: written, as: UTF8.self))]" == expected, "integer \(value)")
        }
    }

    @Test("the whole body decodes to the values it was written from")
    func bodyMatchesJSONEncoder() throws {
        let start = LocalDate("2024-12-20")!
        let end = LocalDate("2025-02-03")!
        let daily = HealthStatisticsTests.daily(from: start, through: end)
        for period in HealthStatistics.Period.allCases {
            let (items, summary) = HealthStatistics.aggregate(daily, from: start, through: end, by: period)
            let statistics = HealthData.Statistics(start: start, end: end, items: items, summary: summary)
            let written = StatisticsResponse(statistics).json(allocator: ByteBufferAllocator())
            let reference = Body(
                items: items.map { Self.reference($0.label, $0.totals) },
                summary: Self.reference("2024-12-20 to 2025-02-03", summary))
            #expect(try JSONDecoder().decode(Body.self, from: Data(buffer: written)) == reference)
        }
    }

    @Test("the packed per-day value reads back every day")
    func packedReadsBack() throws {
        let text = "-3:1:2:3:4,20000:100000:86400:1500000:25000000,20001:0:0:0:0"
        let totals = try PackedDailyTotals.parse(text)
        #expect(totals.count == 3)
        #expect(
            totals[LocalDate(dayNumber: -3)]
                == HealthTotals(steps: 1, duration: 2, caloriesHundredths: 3, distanceHundredths: 4))
        #expect(
            totals[LocalDate(dayNumber: 20_000)]
                == HealthTotals(
                    steps: 100_000, duration: 86_400, caloriesHundredths: 1_500_000, distanceHundredths: 25_000_000))
        #expect(totals[LocalDate(dayNumber: 20_001)] == .zero)
        #expect(try PackedDailyTotals.parse("").isEmpty)
    }

    @Test(
        "a packed value the summary query cannot have written is refused, not half read",
        arguments: ["1:2:3:4", "1:2:3:4:x", "1::3:4:5", "1:2:3:4:5:6", "1:2:3:4:99999999999999999999"])
    func packedMalformed(_ text: String) {
        #expect(throws: PackedDailyTotals.Malformed.self) { try PackedDailyTotals.parse(text) }
    }
}
