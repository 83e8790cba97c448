import Foundation
import Testing
import ZIPFoundation

@testable import HealthExport

/// What keeps one export from growing the reader without end, and the boundaries a reader stops and starts at.
@Suite("Health export: bounds and boundaries")
struct ExportBoundsTests {
    private static let head = #"<?xml version="1.0"?><HealthData locale="en_US">"#

    private static func record(type: String = "HKQuantityTypeIdentifierStepCount", value: Int = 1) -> String {
        #"<Record type="\#(type)" unit="count" startDate="2024-03-10 09:00:00 -0400" "#
            + #"endDate="2024-03-10 09:10:00 -0400" value="\#(value)"/>"#
    }

    private func read(_ text: String, checkingOnly: Bool = false) throws -> [AppleHealthExportReader.Event] {
        var reader = AppleHealthExportReader(checkingOnly: checkingOnly)
        var events: [AppleHealthExportReader.Event] = []
        try reader.feed(Array(text.utf8)) { events.append($0) }
        try reader.finish()
        return events
    }

    private func message(_ text: String, checkingOnly: Bool = false) -> String? {
        do {
            _ = try read(text, checkingOnly: checkingOnly)
            return nil
        } catch let error as ExportError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func aTypeLongerThanAnyHealthKitTypeRefusesTheFile() {
        let long = String(repeating: "T", count: AppleHealthExportReader.maximumTypeBytes + 1)
        let fits = String(repeating: "T", count: AppleHealthExportReader.maximumTypeBytes)
        for checkingOnly in [false, true] {
            #expect(message(Self.head + Self.record(type: fits) + "</HealthData>", checkingOnly: checkingOnly) == nil)
            #expect(
                message(Self.head + Self.record(type: long) + "</HealthData>", checkingOnly: checkingOnly)?
                    .contains("longer than 128 bytes") == true, "a record's, checking only: \(checkingOnly)")
            #expect(
                message(
                    Self.head + #"<Correlation type="\#(long)"></Correlation></HealthData>"#, checkingOnly: checkingOnly
                )?
                .contains("longer than 128 bytes") == true, "a correlation's, checking only: \(checkingOnly)")
        }
    }

    @Test func elementsNestedDeeperThanAnExportsAreRefused() {
        let fits =
            String(repeating: "<a>", count: AppleHealthExportReader.maximumDepth - 1)
            + String(repeating: "</a>", count: AppleHealthExportReader.maximumDepth - 1)
        #expect(message(Self.head + fits + "</HealthData>") == nil)
        let deep = String(repeating: "<a>", count: 1_000_000)
        #expect(message(Self.head + deep)?.hasPrefix("Elements nest more than 16 deep") == true)
    }

    @Test func sixteenMebibytesWithoutACompleteRecordRefuseTheFile() {
        let gap = Int(AppleHealthExportReader.maximumBytesBetweenBoundaries)
        let text = Self.head + String(repeating: " ", count: gap) + "</HealthData>"
        #expect(message(text)?.contains("hold no complete record") == true)
        // The same bytes inside one record's children: still no boundary.
        let nested =
            Self.head + "<Correlation type=\"x\">" + String(repeating: "<a/>", count: gap / 4) + "</Correlation>"
            + "</HealthData>"
        #expect(message(nested)?.contains("hold no complete record") == true)
        // Spread between records, the same bytes are fine.
        let spread =
            Self.head + String(repeating: Self.record() + String(repeating: " ", count: 4_000), count: 5_000)
            + "</HealthData>"
        #expect(message(spread) == nil)
    }

    @Test func boundariesFollowEachChildOfHealthData() throws {
        let text =
            Self.head + " " + Self.record() + "\n<Correlation type=\"c\">" + Self.record() + "</Correlation>"
            + "<Me/></HealthData>"
        let boundaries = try read(text).compactMap { event -> Int64? in
            if case .boundary(let offset) = event { return offset }
            return nil
        }
        let bytes = Array(text.utf8)
        let afterHead = Int64(Self.head.utf8.count)
        let afterRecord = afterHead + 1 + Int64(Self.record().utf8.count)
        #expect(boundaries.first == afterHead)
        #expect(boundaries.dropFirst().first == afterRecord)
        #expect(boundaries.count == 4, "after HealthData's start, the record, the correlation and Me")
        for offset in boundaries { #expect(bytes[Int(offset) - 1] == UInt8(ascii: ">")) }
    }

    @Test func aReaderResumedAtABoundaryReadsTheRestAsTheFirstDid() throws {
        let text = Self.head + (0..<50).map { Self.record(value: $0) + "\n" }.joined() + "</HealthData>"
        let all = try read(text)
        let boundaries = all.enumerated().compactMap { index, event -> (Int, Int64)? in
            if case .boundary(let offset) = event { return (index, offset) }
            return nil
        }
        for (index, offset) in boundaries.dropLast() {
            var reader = AppleHealthExportReader(resumingAt: offset)
            var rest: [AppleHealthExportReader.Event] = []
            try reader.feed(Array(text.utf8)[Int(offset)...]) { rest.append($0) }
            try reader.finish()
            #expect(rest == Array(all[(index + 1)...]), "from byte \(offset)")
        }
    }

    @Test func longTextMakesARecordMalformed() throws {
        var record = try #require(
            try read(Self.head + Self.record() + "</HealthData>").compactMap { event in
                if case .record(let record) = event { return record }
                return nil
            }.first)
        #expect(throws: Never.self) { try ImportedSample.from(record).get() }
        let cases: [(WritableKeyPath<AppleHealthRecord, String?>, Int, String)] = [
            (\.sourceName, ImportedSample.maximumSourceNameBytes, "sourceName"),
            (\.unit, ImportedSample.maximumUnitBytes, "unit"),
            (\.device, ImportedSample.maximumDeviceBytes, "device"),
        ]
        for (field, limit, name) in cases {
            var fits = record
            fits[keyPath: field] = name == "unit" ? "count" : String(repeating: "x", count: limit)
            #expect(throws: Never.self, "\(name)") { try ImportedSample.from(fits).get() }
            record[keyPath: field] = String(repeating: "x", count: limit + 1)
            #expect(ImportedSample.from(record) == .failure(.malformed(name)))
            record[keyPath: field] = name == "unit" ? "count" : nil
        }
    }
}

/// Reading a file from an offset, and the cap on how much XML one file may hold.
@Suite("Health export: the file's limits")
struct ExportFileLimitTests {
    private func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("hale-limit-\(UUID().uuidString)-\(name)")
    }

    @Test func aZipThatInflatesPastTheLimitStopsThere() throws {
        let bomb = try HostileExports.zipBomb(inflatingTo: 64 << 20)
        #expect(bomb.count < 200_000, "\(bomb.count) bytes of zip")
        let url = temporary("export.zip")
        try bomb.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var read: Int64 = 0
        try ExportFile.read(url, limit: 64 << 20) { chunk, _ in read += Int64(chunk.count) }
        #expect(read == 64 << 20)
        var handed: Int64 = 0
        #expect(throws: ExportError("export.xml is longer than 8388608 bytes, the most this server imports.")) {
            try ExportFile.read(url, limit: 8 << 20) { chunk, _ in handed += Int64(chunk.count) }
        }
        #expect(handed <= 8 << 20, "nothing past the limit is handed on")
    }

    @Test func anXMLFileLongerThanTheLimitIsRefusedBeforeItIsRead() throws {
        let url = temporary("export.xml")
        try Data(("<HealthData>" + String(repeating: " ", count: 2_000) + "</HealthData>").utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var chunks = 0
        #expect(throws: ExportError("export.xml is longer than 1000 bytes, the most this server imports.")) {
            try ExportFile.read(url, limit: 1_000) { _, _ in chunks += 1 }
        }
        #expect(chunks == 0)
    }

    @Test func aFileIsReadFromAnOffsetAlikeFromAZipAndFromXML() throws {
        let xml = Data((0..<200_000).map { UInt8(ascii: "a") + UInt8($0 % 26) })
        let plain = temporary("export.xml")
        var withHead = Data("<".utf8)
        withHead.append(xml)
        try withHead.write(to: plain)
        let zipped = temporary("export.zip")
        let archive = try Archive(url: zipped, accessMode: .create)
        try archive.addEntry(
            with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(withHead.count),
            compressionMethod: .deflate
        ) { position, size in withHead.subdata(in: Int(position)..<Int(position) + size) }
        defer {
            try? FileManager.default.removeItem(at: plain)
            try? FileManager.default.removeItem(at: zipped)
        }
        for offset: Int64 in [0, 1, 99_999, Int64(withHead.count) - 1, Int64(withHead.count)] {
            for url in [plain, zipped] {
                var read = Data()
                var last: Int64 = 0
                try ExportFile.read(url, from: offset) { chunk, progress in
                    read.append(chunk)
                    last = progress.bytesRead
                }
                #expect(read == withHead.dropFirst(Int(offset)), "\(url.pathExtension) from \(offset)")
                #expect(offset == withHead.count || last == withHead.count)
            }
        }
    }
}
