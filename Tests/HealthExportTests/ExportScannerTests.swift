import Foundation
import Testing

@testable import HealthExport

/// The tag scanner: any chunking, the predefined entities only, and bounded memory.
@Suite("Health export: the XML scanner")
struct ExportScannerTests {
    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 13 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        ]>
        <HealthData locale="en_US">
         <!-- a comment with a > in it -->
         <ExportDate value="2024-03-10 12:00:00 -0400"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Ada&apos;s iPhone &amp; &#x2764;" unit="count" value="42" startDate="2024-03-10 09:00:00 -0400" endDate="2024-03-10 09:10:00 -0400"/>
        </HealthData>
        """

    private func scan(_ text: String, chunk size: Int) throws -> [ExportElement] {
        var scanner = ExportElementScanner()
        var found: [ExportElement] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            try scanner.feed(bytes[index..<min(bytes.count, index + size)]) { found.append($0) }
            index += size
        }
        try scanner.finish()
        return found
    }

    @Test func theSameTagsWhateverTheChunks() throws {
        let whole = try scan(Self.document, chunk: 1 << 20)
        #expect(whole.map(\.name) == ["HealthData", "ExportDate", "Record", "HealthData"])
        #expect(whole[2].attributes["sourceName"] == "Ada's iPhone & ❤")
        #expect(whole[2].kind == .start(selfClosing: true))
        #expect(whole[3].kind == .end)
        for size in [1, 2, 3, 7, 64, 333] {
            #expect(try scan(Self.document, chunk: size) == whole, "chunks of \(size)")
        }
    }

    @Test func declaredEntitiesAreNeverExpanded() {
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE HealthData [
             <!ENTITY lol "lol">
             <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
             <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
            ]>
            <HealthData locale="en_US"><Record type="&lol3;"/></HealthData>
            """
        let record = bomb.utf8.count - #"<Record type="&lol3;"/></HealthData>"#.utf8.count
        #expect(
            throws: ExportError(
                "The tag at byte \(record) is not well-formed: the entity &lol3; is not one of XML's own (entities are never expanded)."
            )
        ) {
            _ = try scan(bomb, chunk: 4096)
        }
    }

    @Test func aTagLongerThanTheLimitIsAnError() {
        let long = "<HealthData><Record value=\"" + String(repeating: "9", count: ExportElementScanner.maximumTagBytes)
        #expect(throws: ExportError("A tag at byte 12 is longer than 65536 bytes.")) {
            _ = try scan(long, chunk: 8192)
        }
    }

    /// A `>` inside quotes does not end a tag; a tag made of nothing else is still bounded by the limit.
    @Test func closingBracketsInsideQuotesAreBoundedToo() throws {
        let brackets = String(repeating: ">", count: 60_000)
        let found = try scan(#"<HealthData><Record note=""# + brackets + #""/></HealthData>"#, chunk: 4096)
        #expect(found.map(\.name) == ["HealthData", "Record", "HealthData"])
        #expect(found[1].attributes["note"] == brackets)
        let endless =
            #"<HealthData><Record note=""# + String(repeating: ">", count: ExportElementScanner.maximumTagBytes)
        #expect(throws: ExportError("A tag at byte 12 is longer than 65536 bytes.")) {
            _ = try scan(endless, chunk: 4096)
        }
        let doctype = "<!DOCTYPE HealthData [" + String(repeating: ">", count: ExportElementScanner.maximumDoctypeBytes)
        #expect(throws: ExportError("A tag at byte 0 is longer than 1048576 bytes.")) {
            _ = try scan(doctype, chunk: 65_536)
        }
    }

    @Test func aFileEndingInsideATagIsTruncated() {
        #expect(throws: ExportError("The file ends inside a tag (at byte 25): it is truncated.")) {
            _ = try scan("<HealthData><Record type=", chunk: 5)
        }
    }

    @Test func malformedAttributesAreNamed() {
        #expect(throws: ExportError("The tag at byte 0 is not well-formed: attribute type has no value.")) {
            _ = try scan("<Record type/>", chunk: 100)
        }
        #expect(throws: ExportError("The tag at byte 0 is not well-formed: attribute type's value is not quoted.")) {
            _ = try scan("<Record type=steps/>", chunk: 100)
        }
        #expect(throws: ExportError("The tag at byte 0 is not well-formed: a bare & in an attribute value.")) {
            _ = try scan("<Record type=\"a & b\"/>", chunk: 100)
        }
    }
}
