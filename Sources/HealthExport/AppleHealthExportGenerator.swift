import Foundation
import HealthSamples
import ZIPFoundation

/// Writes realistic Apple Health exports of any size, with the daily step totals Hale must count from them: for the
/// tests, and for `hale bench ingest`.
///
/// Each day, in New York time (EST before `dstChange`, EDT from its 02:00 on): an Apple Watch records ten 10-minute walks
/// of 100 steps from 09:00, and the iPhone records the same walks as 90 steps each (covered by the watch, so never
/// counted); the iPhone alone records 50 steps at 08:00, a hand-entered 30 at 08:30 (both before any walk, however
/// many there are), and 200 steps from 23:50 to 00:10 (half on each day). Besides: distance for each walk, a heart rate, an activity summary, a blood-pressure
/// correlation whose record also stands at the top level, a 30-minute run, and, once, a record with a broken date.
public struct AppleHealthExportGenerator: Sendable {
    /// The first day, `YYYY-MM-DD`.
    public var firstDay: String
    /// How many days.
    public var days: Int
    /// The first day on EDT (-0400), `YYYY-MM-DD`; before it, EST (-0500).
    public var dstChange: String
    /// Extra walks per day (watch and phone each), for size: each adds 100 counted steps and three records. At most
    /// 79: the walks follow each other every ten minutes from 09:00, and the 89th ends at 23:50.
    public var extraWalksPerDay = 0 {
        didSet { extraWalksPerDay = min(max(extraWalksPerDay, 0), 79) }
    }

    /// A generator of `days` days from `firstDay`, changing to daylight saving time on `dstChange`.
    public init(firstDay: String, days: Int, dstChange: String) {
        self.firstDay = firstDay
        self.days = days
        self.dstChange = dstChange
    }

    /// What the export holds, counted as Hale must count it.
    public struct Expected: Sendable, Equatable {
        /// Steps per local day, `YYYY-MM-DD`: only days inside the export (the last day's crossing walk ends the
        /// day after, which gets its 100 too).
        public var dailySteps: [String: Double] = [:]
        /// Top-level `Record`s and `Workout`s.
        public var records = 0
        /// Step records (counted or not).
        public var stepRecords = 0
        /// Distance records.
        public var distanceRecords = 0
        /// Heart-rate records: a type Hale has no samples of.
        public var heartRateRecords = 0
        /// Workouts.
        public var workouts = 0
        /// Activity summaries.
        public var activitySummaries = 0
        /// Correlations (each with a record that also stands at the top level).
        public var correlations = 0
        /// Records with a broken date.
        public var malformed = 0
    }

    static let watch =
        "&lt;&lt;HKDevice: 0x283a9c0f0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.3&gt;"
    static let phone =
        "&lt;&lt;HKDevice: 0x2806ab840&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:17.3.1&gt;"

    /// Writes the export's XML to `url`, and says what it holds.
    public func writeXML(to url: URL) throws -> Expected {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var expected = Expected()
        var buffer = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: 13 -->
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
            <!ATTLIST HealthData locale CDATA #REQUIRED>
            ]>
            <HealthData locale="en_US">
             <ExportDate value="\(firstDay) 00:00:00 -0500"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01"/>

            """
        let first = Self.dayNumber(firstDay)
        let change = Self.dayNumber(dstChange)
        for index in 0..<days {
            let day = first + index
            let date = Self.text(day)
            let offset = day >= change ? "-0400" : "-0500"
            let next = Self.text(day + 1)
            // 00:10 on the day clocks go forward (at 02:00) is still standard time.
            let nextOffset = day + 1 > change ? "-0400" : "-0500"
            for walk in 0..<(10 + extraWalksPerDay) {
                let start = "\(date) \(Self.clock(9 * 60 + walk * 10)) \(offset)"
                let end = "\(date) \(Self.clock(9 * 60 + walk * 10 + 10)) \(offset)"
                buffer += Self.record(
                    "StepCount", "count", 100, start, end, source: "Ada’s Apple Watch", device: Self.watch)
                buffer += Self.record("StepCount", "count", 90, start, end, source: "Ada’s iPhone", device: Self.phone)
                buffer += Self.record(
                    "DistanceWalkingRunning", "km", 0.08, start, end, source: "Ada’s Apple Watch", device: Self.watch)
                expected.stepRecords += 2
                expected.distanceRecords += 1
            }
            buffer += Self.record(
                "StepCount", "count", 50, "\(date) 08:00:00 \(offset)", "\(date) 08:05:00 \(offset)",
                source: "Ada’s iPhone",
                device: Self.phone)
            buffer += Self.record(
                "StepCount", "count", 30, "\(date) 08:30:00 \(offset)", "\(date) 08:35:00 \(offset)", source: "Health",
                device: nil, userEntered: true)
            buffer += Self.record(
                "StepCount", "count", 200, "\(date) 23:50:00 \(offset)", "\(next) 00:10:00 \(nextOffset)",
                source: "Ada’s iPhone", device: Self.phone)
            buffer += Self.record(
                "HeartRate", "count/min", 61, "\(date) 09:00:00 \(offset)", "\(date) 09:00:00 \(offset)",
                source: "Ada’s Apple Watch", device: Self.watch)
            buffer += """
                 <ActivitySummary dateComponents="\(date)" activeEnergyBurned="410" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="Cal"/>

                """
            expected.stepRecords += 3
            expected.heartRateRecords += 1
            expected.activitySummaries += 1
            expected.dailySteps[date, default: 0] += Double(1000 + extraWalksPerDay * 100 + 50 + 30 + 100)
            expected.dailySteps[next, default: 0] += 100
            if index == 0 {
                buffer += """
                     <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Withings" creationDate="\(date) 07:00:00 \(offset)" startDate="\(date) 07:00:00 \(offset)" endDate="\(date) 07:00:00 \(offset)">
                      <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Withings" unit="mmHg" startDate="\(date) 07:00:00 \(offset)" endDate="\(date) 07:00:00 \(offset)" value="121"/>
                     </Correlation>

                    """
                buffer += Self.record(
                    "BloodPressureSystolic", "mmHg", 121, "\(date) 07:00:00 \(offset)", "\(date) 07:00:00 \(offset)",
                    source: "Withings", device: nil)
                buffer += """
                     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Ada’s Apple Watch" device="\(Self.watch)" creationDate="\(date) 07:31:00 \(offset)" startDate="\(date) 06:30:00 \(offset)" endDate="\(date) 07:00:00 \(offset)">
                      <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" startDate="\(date) 06:30:00 \(offset)" endDate="\(date) 07:00:00 \(offset)" sum="5.1" unit="km"/>
                     </Workout>
                     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Ada’s iPhone" unit="count" startDate="yesterday" endDate="\(date) 07:00:00 \(offset)" value="12"/>

                    """
                expected.correlations += 1
                expected.workouts += 1
                expected.malformed += 1
            }
            if buffer.utf8.count > 1 << 20 {
                handle.write(Data(buffer.utf8))
                buffer = ""
            }
        }
        buffer += "</HealthData>\n"
        handle.write(Data(buffer.utf8))
        expected.records =
            expected.stepRecords + expected.distanceRecords + expected.heartRateRecords + expected.workouts
            + expected.malformed + expected.correlations  // the systolic record standing at the top level
        return expected
    }

    /// Writes the export as the Health app does: `export.zip` holding `apple_health_export/export.xml`.
    public func writeZip(to url: URL) throws -> Expected {
        let xml = url.deletingLastPathComponent().appendingPathComponent(UUID().uuidString + ".xml")
        defer { try? FileManager.default.removeItem(at: xml) }
        let expected = try writeXML(to: xml)
        let archive = try Archive(url: url, accessMode: .create)
        try archive.addEntry(
            with: "apple_health_export/export.xml", fileURL: xml, compressionMethod: .deflate)
        return expected
    }

    private static func record(
        _ type: String, _ unit: String, _ value: Double, _ start: String, _ end: String, source: String,
        device: String?, userEntered: Bool = false
    ) -> String {
        let device = device.map { #" device="\#($0)""# } ?? ""
        let value = value == value.rounded() ? String(Int(value)) : String(value)
        let opening =
            #" <Record type="HKQuantityTypeIdentifier\#(type)" sourceName="\#(source)" sourceVersion="17.3.1""#
            + #"\#(device) unit="\#(unit)" creationDate="\#(end)" startDate="\#(start)" endDate="\#(end)" value="\#(value)""#
        guard userEntered else { return opening + "/>\n" }
        return opening + ">\n  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n </Record>\n"
    }

    static func dayNumber(_ text: String) -> Int {
        LocalDate(text)?.dayNumber ?? 0
    }

    static func text(_ dayNumber: Int) -> String {
        LocalDate(dayNumber: dayNumber).description
    }

    private static func clock(_ minutes: Int) -> String {
        String(format: "%02d:%02d:00", minutes / 60, minutes % 60)
    }
}
