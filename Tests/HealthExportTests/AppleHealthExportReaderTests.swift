import Foundation
import Testing

@testable import HealthExport

/// What the reader makes of an export: top-level records with their metadata, workouts, and the rest counted.
@Suite("Health export: records")
struct AppleHealthExportReaderTests {
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [ <!ELEMENT HealthData ANY> ]>
        <HealthData locale="de_DE">
         <ExportDate value="2024-03-10 12:00:00 -0400"/>
         <Me HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Ada’s Apple Watch" sourceVersion="10.3" device="&lt;&lt;HKDevice: 0x283a9c0f0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.3&gt;" unit="count" creationDate="2024-03-10 09:11:00 -0400" startDate="2024-03-10 09:00:00 -0400" endDate="2024-03-10 09:10:00 -0400" value="812"/>
         <Record type="HKQuantityTypeIdentifierDistanceWalkingRunning" sourceName="Health" unit="km" creationDate="2024-03-10 10:00:00 -0400" startDate="2024-03-10 08:00:00 -0400" endDate="2024-03-10 08:30:00 -0400" value="1.5">
          <MetadataEntry key="HKWasUserEntered" value="1"/>
         </Record>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-03-10 09:00:00 -0400" endDate="2024-03-10 09:00:00 -0400" value="61"/>
         <Correlation type="HKCorrelationTypeIdentifierBloodPressure" startDate="2024-03-10 07:00:00 -0400" endDate="2024-03-10 07:00:00 -0400">
          <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" unit="mmHg" startDate="2024-03-10 07:00:00 -0400" endDate="2024-03-10 07:00:00 -0400" value="120"/>
         </Correlation>
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="31.5" durationUnit="min" sourceName="Workout" startDate="2024-03-10 06:00:00 -0400" endDate="2024-03-10 06:31:30 -0400">
          <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" sum="5.2" unit="km"/>
         </Workout>
         <ActivitySummary dateComponents="2024-03-10" activeEnergyBurned="410"/>
        </HealthData>
        """

    static func read(_ text: String) throws -> (records: [AppleHealthRecord], skipped: [String], locale: String?) {
        var reader = AppleHealthExportReader()
        var records: [AppleHealthRecord] = []
        var skipped: [String] = []
        try reader.feed(Array(text.utf8)) { event in
            switch event {
            case .record(let record): records.append(record)
            case .skipped(let name): skipped.append(name)
            case .boundary: break
            }
        }
        try reader.finish()
        return (records, skipped, reader.locale)
    }

    @Test func topLevelRecordsWorkoutsAndTheRestCounted() throws {
        let (records, skipped, locale) = try Self.read(Self.export)
        #expect(locale == "de_DE")
        #expect(
            records.map(\.type) == [
                "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierDistanceWalkingRunning",
                "HKQuantityTypeIdentifierHeartRate", "HKWorkoutTypeIdentifier",
            ])
        #expect(records.map(\.userEntered) == [false, true, false, false])
        #expect(records[3].value == "31.5" && records[3].unit == "min")
        #expect(skipped == ["HKCorrelationTypeIdentifierBloodPressure", "ActivitySummary"])
    }

    @Test func recordsBecomeSamplesWithTheirDevicesOffsetsAndIdentities() throws {
        let (records, _, _) = try Self.read(Self.export)
        let samples = records.map(ImportedSample.from)
        let steps = try samples[0].get()
        #expect(steps.type == .steps && steps.value == 812 && steps.unit == "count")
        #expect(steps.deviceModel == "Watch6,2")
        #expect(steps.start.iso8601 == "2024-03-10T09:00:00-04:00")
        #expect(steps.start.offset == "-04:00")
        #expect(steps.sourceName == "Ada’s Apple Watch")
        let distance = try samples[1].get()
        #expect(distance.userEntered && distance.unit == "km" && distance.deviceModel == nil)
        #expect(samples[2] == .failure(.type("HKQuantityTypeIdentifierHeartRate")))
        #expect(try samples[3].get().type == .workouts)
        // Pinned: an identity that changed would store every record of an export imported again a second time.
        #expect(steps.identity == "export-aa7490aa6cfbac6f5a227a729c422950")
        #expect(distance.identity == "export-83e276408fcb837502b0b5a5948b29ff")
        #expect(try ImportedSample.from(records[0]).get().identity == steps.identity, "content decides the identity")
        var other = records[0]
        other.value = "813"
        #expect(try ImportedSample.from(other).get().identity != steps.identity)
    }

    @Test func malformedRecordsSayWhichAttribute() throws {
        let (records, _, _) = try Self.read(Self.export)
        var record = records[0]
        record.startDate = "2024-03-10T09:00:00Z"
        #expect(ImportedSample.from(record) == .failure(.malformed("startDate")))
        record = records[0]
        record.value = "nan"
        #expect(ImportedSample.from(record) == .failure(.malformed("value")))
    }

    @Test func notAnExportOrCutShort() {
        #expect(throws: ExportError("This is not an Apple Health export: its root element is plist.")) {
            _ = try Self.read("<?xml version=\"1.0\"?><plist><dict/></plist>")
        }
        #expect(throws: ExportError("The export ends before its HealthData element does: it is truncated.")) {
            _ = try Self.read("<HealthData locale=\"en\"><Record type=\"x\" value=\"1\"/>")
        }
    }

    @Test func datesAndDevices() throws {
        let date = try #require(AppleHealthDate("2019-05-14 18:52:09 -0400"))
        #expect(date.date == Date(timeIntervalSince1970: 1_557_874_329))
        #expect(date.iso8601 == "2019-05-14T18:52:09-04:00")
        #expect(AppleHealthDate("0999-01-02 03:04:05 +0530")?.iso8601 == "0999-01-02T03:04:05+05:30")
        #expect(AppleHealthDate("2016-12-31 23:59:60 +0000")?.iso8601 == "2017-01-01T00:00:00+00:00")
        #expect(AppleHealthDate("2024-02-29 00:00:00 -1200")?.iso8601 == "2024-02-29T00:00:00-12:00")
        #expect(AppleHealthDate("2024-02-29 00:00:00 -0000")?.iso8601 == "2024-02-29T00:00:00+00:00")
        #expect(AppleHealthDate("2019-13-14 18:52:09 -0400") == nil)
        #expect(AppleHealthDate("2019-05-14 18:52:09 -04:00") == nil)
        #expect(AppleHealthDate("2019-05-14T18:52:09-0400") == nil)
        let phone = AppleHealthDevice(
            "<<HKDevice: 0x2806ab840>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:17.3.1>"
        )
        #expect(phone == AppleHealthDevice(name: "iPhone", model: "iPhone", hardware: "iPhone15,2"))
        #expect(AppleHealthDevice("garbage").hardware == nil)
    }
}
