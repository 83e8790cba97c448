import Foundation
import Testing

@testable import HealthSamples

@Suite("Health sync: client timestamps")
struct ClientTimestampTests {
    @Test("what iOS, JavaScript and Kotlin write parses to the same instant, keeping a written offset")
    func parses() throws {
        let utc = try #require(ClientTimestamp("2025-10-28T14:03:11Z"))
        #expect(utc.instant == Date(timeIntervalSince1970: 1_761_660_191))
        #expect(utc.writtenOffset == nil)
        let berlin = try #require(ClientTimestamp("2025-10-28T15:03:11.250+01:00"))
        #expect(berlin.instant == Date(timeIntervalSince1970: 1_761_660_191.25))
        #expect(berlin.writtenOffset == 3_600)
        let newYork = try #require(ClientTimestamp("2025-10-28T10:03:11-0400"))
        #expect(newYork.instant == utc.instant)
        #expect(newYork.writtenOffset == -14_400)
        #expect(ClientTimestamp("2025-10-28T14:03:11.000000001Z") != nil)
    }

    @Test(
        "anything else is refused",
        arguments: [
            "2025-10-28", "2025-10-28T14:03:11", "2025-10-28 14:03:11Z", "2025-13-28T14:03:11Z",
            "2025-10-28T24:03:11Z", "2025-10-28T14:60:11Z", "2025-10-28T14:03:11+19:00", "2025-10-28T14:03:11+1:00",
            "2025-10-28T14:03:11.Z", "2025-10-28T14:03:11.1e5Z", "2025-10-28T+4:03:11Z", "2025-10-28T14:03:11UTC",
            "",
        ])
    func refuses(_ text: String) {
        #expect(ClientTimestamp(text) == nil)
    }
}
