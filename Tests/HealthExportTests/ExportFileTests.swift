import Foundation
import Testing
import ZIPFoundation

@testable import HealthExport

/// Reading `export.zip` or `export.xml` in chunks, and refusing what is neither, or cut short.
@Suite("Health export: the file")
struct ExportFileTests {
    private func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("hale-export-\(UUID().uuidString)-\(name)")
    }

    private func zip(_ xml: String) throws -> URL {
        let url = temporary("export.zip")
        let archive = try Archive(url: url, accessMode: .create)
        let data = Data(xml.utf8)
        try archive.addEntry(
            with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(data.count),
            compressionMethod: .deflate
        ) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
        return url
    }

    private func read(_ url: URL) throws -> (xml: String, lastFraction: Double) {
        var xml = Data()
        var fraction = 0.0
        try ExportFile.read(url) { data, progress in
            xml.append(data)
            fraction = progress.fraction
        }
        return (String(decoding: xml, as: UTF8.self), fraction)
    }

    @Test func aZipAndTheXMLItHoldsReadAlike() throws {
        let xml = AppleHealthExportReaderTests.export + String(repeating: "\n<!-- padding -->", count: 40_000)
        let zipped = try zip(xml)
        let plain = temporary("export.xml")
        try Data(xml.utf8).write(to: plain)
        defer {
            try? FileManager.default.removeItem(at: zipped)
            try? FileManager.default.removeItem(at: plain)
        }
        #expect(try read(zipped) == (xml, 1.0))
        #expect(try read(plain) == (xml, 1.0))
    }

    @Test func theChunksAsAnAsyncSequence() async throws {
        let xml = AppleHealthExportReaderTests.export + String(repeating: "\n<!-- padding -->", count: 40_000)
        let zipped = try zip(xml)
        defer { try? FileManager.default.removeItem(at: zipped) }
        var read = Data()
        var fractions: [Double] = []
        for try await (data, progress) in ExportFile.chunks(zipped) {
            read.append(data)
            fractions.append(progress.fraction)
        }
        #expect(String(decoding: read, as: UTF8.self) == xml)
        #expect(fractions.count == 3 && fractions.last == 1.0 && fractions == fractions.sorted())
    }

    @Test func aConsumerThatStopsEarlyStopsTheProducer() async throws {
        let ended = DispatchSemaphore(value: 0)
        let produced = Counter()
        do {
            var iterator = OffThreadSequence<Int>(ahead: 2) { yield in
                defer { ended.signal() }
                for index in 0..<1_000 {
                    try yield(index)
                    produced.increment()
                }
            }.makeAsyncIterator()
            #expect(try await iterator.next() == 0)
        }
        // The iterator is gone: the producer, waiting for a place ahead, must stop rather than wait forever.
        let stopped = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: ended.wait(timeout: .now() + 30) == .success) }
        }
        #expect(stopped)
        #expect(produced.value < 10, "it stopped at the next element, not at the end")
    }

    @Test func aTruncatedZipIsRefused() throws {
        let zipped = try zip(AppleHealthExportReaderTests.export)
        defer { try? FileManager.default.removeItem(at: zipped) }
        let bytes = try Data(contentsOf: zipped)
        try bytes.prefix(bytes.count / 2).write(to: zipped)
        #expect(throws: ExportError.self) { _ = try read(zipped) }
        do {
            _ = try read(zipped)
        } catch let error as ExportError {
            #expect(error.message.hasPrefix("The zip archive cannot be read (is it complete?)"))
        }
    }

    @Test func neitherZipNorXMLIsRefused() throws {
        let url = temporary("photo.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(
            throws: ExportError("This file is neither a zip archive nor XML: export.zip or export.xml is expected.")
        ) { _ = try read(url) }
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func increment() { lock.withLock { count += 1 } }
}
