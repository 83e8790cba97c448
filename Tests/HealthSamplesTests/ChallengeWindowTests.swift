import Testing

@testable import HealthSamples

@Suite("Health samples: challenge windows")
struct ChallengeWindowTests {
    static func rollup(_ day: String, _ type: HealthSampleType, _ value: Double, count: Int = 1) throws -> DailyRollup {
        DailyRollup(day: try #require(LocalDate(day)), type: type, value: value, sampleCount: count)
    }

    static func window(_ first: String, _ last: String) throws -> ChallengeWindow? {
        ChallengeWindow(first: try #require(LocalDate(first)), last: try #require(LocalDate(last)))
    }

    @Test("progress sums the window's days, inclusive, across a month boundary")
    func acrossMonthBoundary() throws {
        let window = try #require(try Self.window("2025-01-30", "2025-02-02"))
        let rollups = try [
            Self.rollup("2025-01-29", .steps, 9000), Self.rollup("2025-01-30", .steps, 1000),
            Self.rollup("2025-01-31", .steps, 2000), Self.rollup("2025-02-01", .steps, 3000),
            Self.rollup("2025-02-02", .steps, 4000), Self.rollup("2025-02-03", .steps, 9000),
            Self.rollup("2025-01-31", .distance, 5000),
        ]
        #expect(window.progress(of: .steps, in: rollups) == 10_000)
        #expect(window.progress(of: .distance, in: rollups) == 5000)
        #expect(window.progress(of: .calories, in: rollups) == 0)
    }

    @Test("oxygen saturation progress is the mean over the window's samples")
    func oxygenMean() throws {
        let window = try #require(try Self.window("2025-02-27", "2025-03-01"))
        let rollups = try [
            Self.rollup("2025-02-28", .oxygenSaturation, 96, count: 3),
            Self.rollup("2025-03-01", .oxygenSaturation, 100),
        ]
        #expect(window.progress(of: .oxygenSaturation, in: rollups) == 97)
    }

    @Test("a window ending before it starts is refused")
    func invertedWindow() throws {
        #expect(try Self.window("2025-02-01", "2025-01-31") == nil)
    }
}
