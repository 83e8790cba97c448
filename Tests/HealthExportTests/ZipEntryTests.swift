import Foundation
import Testing

@testable import HealthExport

/// Reading export.xml out of a zip by its central directory, and only from the bytes it says the entry has.
@Suite("Health export: the zip archive")
struct ZipEntryTests {
    /// A 771-byte zip whose deflate stream wants more than the file holds: with ZIPFoundation's reader it held the
    /// thread for ever (the `health-export-zip` fuzz target's find).
    static let streamPastItsEnd =
        "UEsDBBQAAAAIAAAAalhkJa2nZQIAAKAFAAAeAAAAYXBwbGVfaGVhbHRoX2V4cG9ydC9leHBvcnQueG1srVT9b9owEP2dv8LzpKqd"
        + "+Eig61gKVBRSgfqxFoLQNE2TZV9pRGJHjkMbqX/8LgmF0A+JSZNAsc/vLu89X65z9hQGZAU69pXsUrtuUQKSKuHLRZfOvItam571"
        + "Kp1Pwx8D7+etS0bAAvMwZIaRXxh2r9xr98Yrhw/dp0hpg2uoXkP1cAJcafE8UFpDwAy+53mu9FIl5rnPjb/yTTpNwpCqUcu+9Ono"
        + "9uddjac7MAPFWQBkMOx7ffJ54t7NxhN32Kv8RvwbWJeC/DOb0l6FdLZcyIoFCZ41reZxzWrVbIvYTcey8Edq1mhhcmR3YXJlOo0Q"
        + "O7q8S5g0yNDD/VgAru990FMD0UAl0lASq0RzuGEhwvuCHbBIxacxmTPDHygRsPI5nhwE5jT7jy6HecQh1pN9sDCnVSIx1elHEcrL"
        + "k6okZDK5Z9wkGvT6ZCx5HQ+UgMBZox6YFo9MQ7E/qTaryOXe5CHbqrey6pQk0jddyguuXEPuf2bHjhHWd8e2t0aQ2LDCtNeosl3Y"
        + "J+LdSmXM2vS23fwHe4c+EpAc5ixYYh9OEinxset1cesvApfhh6Tbe5BuO613SNv1r1kPkc41GCawv1xpdEotkGbU5yyexaAxBhrE"
        + "NqnQ2SiEZstS4290l2K70s8DpcSthjnG2/9Q07c9NO1ich17mb/DYJrGRgU+f/E5DEeL/8hqY1pz/fU1SsZk+/WgII/F82VeeGsF"
        + "87fhTbOIROdlurSVXeRmPyuE+PJDHSd76DhxWjY2TXlyvBpmBDsGBiqMlERr43I6JSzDgitBL9LzREsQXXps54U6jSFA61X+AlBL"
        + "AQIUAxQAAAAIAAAAalhkJa2nZQIAAKAFAAAeAAAAAAAAAAAAAACAAQAAAABhcHBsZV9oZWFsdGhfZXhwb3J0L2V4cG9ydC54bWxQ"
        + "SwUGAAAAAAEAAQBMAAAAoQIAAAAA"

    /// export.xml in a ZIP64 archive: sizes and offset in the entry's ZIP64 field, the directory found through the
    /// ZIP64 end-of-central-directory record (made with Python's struct, read back by its zipfile).
    static let zip64 =
        "UEsDBC0AAAAIAAAAAADt9s3D//////////8eABQAYXBwbGVfaGVhbHRoX2V4cG9ydC9leHBvcnQueG1sAQAQANcAAAAAAAAAoAAA"
        + "AAAAAABtjj8LwjAQxfd+ipC9eqkdVPpn0KHipNVZQntiICYlvRT77T1w0EF4w73H7x6vqF9PKyYMo/GulGoBsq6SokFt6bHXpIX1"
        + "nbZYSnS3ayurRBRn7HzoBc0Dx83xFLUjQ/OF/aFHvu8GQ0s47Hx0JEV0hkrZfcxIOhAX82sGWZ7CKlUgYLMFYIkUcgAp0PX/GPXL"
        + "TNpGJtYqk0uevPxurpI3UEsBAi0ALQAAAAgAAAAAAO32zcP//////////x4AHAAAAAAAAAAAAAAA/////2FwcGxlX2hlYWx0aF9l"
        + "eHBvcnQvZXhwb3J0LnhtbAEAGADXAAAAAAAAAKAAAAAAAAAAAAAAAAAAAABQSwYGLAAAAAAAAAAtAC0AAAAAAAAAAAABAAAAAAAA"
        + "AAEAAAAAAAAAaAAAAAAAAADwAAAAAAAAAFBLBgcAAAAAWAEAAAAAAAABAAAAUEsFBgAAAAD///////////////8AAA=="

    /// export.xml stored, not deflated (Python's zipfile).
    static let stored =
        "UEsDBBQAAAAAAAAAaljt9s3D1wAAANcAAAAeAAAAYXBwbGVfaGVhbHRoX2V4cG9ydC9leHBvcnQueG1sPD94bWwgdmVyc2lvbj0i"
        + "MS4wIj8+CjxIZWFsdGhEYXRhIGxvY2FsZT0iZW5fVVMiPgogPFJlY29yZCB0eXBlPSJIS1F1YW50aXR5VHlwZUlkZW50aWZpZXJT"
        + "dGVwQ291bnQiIHVuaXQ9ImNvdW50IiBzdGFydERhdGU9IjIwMjQtMDMtMTAgMDk6MDA6MDAgLTA0MDAiIGVuZERhdGU9IjIwMjQt"
        + "MDMtMTAgMDk6MTA6MDAgLTA0MDAiIHZhbHVlPSI4MTIiLz4KPC9IZWFsdGhEYXRhPgpQSwECFAMUAAAAAAAAAGpY7fbNw9cAAADX"
        + "AAAAHgAAAAAAAAAAAAAAgAEAAAAAYXBwbGVfaGVhbHRoX2V4cG9ydC9leHBvcnQueG1sUEsFBgAAAAABAAEATAAAABMBAAAAAA=="

    /// A deflated entry of 8 bytes whose stored block claims 65,535: ZIPFoundation told zlib each chunk was a full
    /// buffer, so zlib copied the memory past the chunk into the XML (found by review, then by the fuzz target).
    static let storedBlockPastItsEntry =
        "UEsDBBQAAAAIAAAAAAAAAAAACAAAAP//AAAeAAAAYXBwbGVfaGVhbHRoX2V4cG9ydC9leHBvcnQueG1sAf//AAA8P3hQSwECFAAUAAAA"
        + "CAAAAAAAAAAAAAgAAAD//wAAHgAAAAAAAAAAAAAAAAAAAAAAYXBwbGVfaGVhbHRoX2V4cG9ydC9leHBvcnQueG1sUEsFBgAAAAABAAEA"
        + "TAAAAEQAAAAAAA=="

    private func read(_ base64: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hale-zip-\(UUID()).zip")
        try #require(Data(base64Encoded: base64)).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var xml = Data()
        try ExportFile.read(url) { data, _ in xml.append(data) }
        return String(decoding: xml, as: UTF8.self)
    }

    @Test func aStreamThatRunsPastTheFilesEndIsRefusedAtOnce() throws {
        let started = ContinuousClock.now
        #expect(throws: ExportError.self) { _ = try read(Self.streamPastItsEnd) }
        #expect(ContinuousClock.now - started < .seconds(60), "a hang guard, not a timing")
    }

    @Test(arguments: [("zip64", Self.zip64), ("stored", Self.stored)])
    func everyLayoutAnExportMayHaveReads(name: String, archive: String) throws {
        let xml = try read(archive)
        #expect(xml.hasPrefix("<?xml") && xml.hasSuffix("</HealthData>\n"), "\(name)")
        #expect(xml.contains(#"value="812""#))
    }

    @Test func aChecksumThatDoesNotMatchIsRefused() throws {
        var bytes = try #require(Data(base64Encoded: Self.stored))
        // The first byte of the stored XML, after the 30-byte header and the 30-byte name.
        bytes[60] = UInt8(ascii: "[")
        #expect(
            throws: ExportError(
                "The zip archive cannot be read (is it complete?): export.xml's checksum does not match its data.")
        ) {
            _ = try read(bytes.base64EncodedString())
        }
    }

    @Test func aStoredBlockLongerThanItsEntryEndsTheReadWithoutReadingPastIt() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hale-zip-\(UUID()).zip")
        try #require(Data(base64Encoded: Self.storedBlockPastItsEntry)).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var xml = Data()
        #expect(
            throws: ExportError(
                "The zip archive cannot be read (is it complete?): "
                    + "export.xml's deflate stream ends after the entry's bytes.")
        ) {
            try ExportFile.read(url) { data, _ in xml.append(data) }
        }
        #expect(String(decoding: xml, as: UTF8.self) == "<?x", "the entry's own three bytes, nothing from beyond them")
    }
}
