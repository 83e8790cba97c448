import Foundation
import Testing

@testable import HealthSamples

/// The one wire shape of a synced sample, shared by the SDK and the server.
@Suite("Health samples: a synced sample on the wire")
struct HealthSyncSampleTests {
    static func decode(_ json: String) throws -> HealthSyncSample {
        try JSONDecoder().decode(HealthSyncSample.self, from: Data(json.utf8))
    }

    @Test func whatSeed004sClientsLeaveOutIsImplied() throws {
        let sample = try Self.decode(
            #"{"type":"activeMinutes","value":30,"startDate":"2026-11-22T08:00:00Z","endDate":"2026-11-22T08:30:00Z"}"#)
        #expect(sample.unit == "min", "active minutes are counted in minutes, as their name says")
        #expect(sample.userEntered == false)
        #expect(sample.id == nil && sample.lastModified == nil)
        #expect(try Self.decode(#"{"type":"nonsense","value":1,"startDate":"a","endDate":"b"}"#).unit == "")
    }

    @Test func aSentUnitAndUserEnteredAreKept() throws {
        let sample = try Self.decode(
            #"{"type":"steps","value":5,"unit":"count","userEntered":true,"startDate":"a","endDate":"b"}"#)
        #expect(sample.unit == "count" && sample.userEntered)
    }

    @Test func theSDKsSamplesEncodeAsBeforeWithNoEmptyFields() throws {
        let start = Date(timeIntervalSince1970: 1_763_800_000)
        let sample = HealthSyncSample(
            id: "A", type: "steps", value: 12, unit: "count", start: start, end: start.addingTimeInterval(60),
            timeZone: TimeZone(secondsFromGMT: 3_600) ?? .gmt)
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(sample)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "id", "type", "value", "unit", "startDate", "endDate", "timeZoneOffset", "userEntered",
            ])
        #expect(object["timeZoneOffset"] as? String == "+01:00")
        #expect(try JSONDecoder().decode(HealthSyncSample.self, from: JSONEncoder().encode(sample)) == sample)
    }

    @Test func aValueAndItsDatesAreRequired() {
        #expect(throws: DecodingError.self) { try Self.decode(#"{"type":"steps","startDate":"a","endDate":"b"}"#) }
        #expect(throws: DecodingError.self) { try Self.decode(#"{"type":"steps","value":1,"endDate":"b"}"#) }
    }
}
