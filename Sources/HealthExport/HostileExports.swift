import Foundation
import HealthSamples
import ZIPFoundation

/// Exports made to hurt a server rather than to hold health data: what the tests of an import's bounds, and
/// `hale bench import-memory`, upload. Each is a small zip whose `export.xml` is large, written a piece at a time.
public enum HostileExports {
    /// One hostile export.
    public enum Kind: String, Sendable, CaseIterable {
        /// A record of a different made-up type each: one key of the summary per record, before types were bounded.
        case manyTypes = "many-types"
        /// Records whose types are 64,000 bytes long, each different: a gigabyte of summary keys from a megabyte of zip.
        case longTypes = "long-types"
        /// Ten thousand records whose `sourceName` is 60,000 bytes long: one batch of them held 600 MB.
        case longSourceNames = "long-source-names"
        /// One made-up record repeated, inflating a thousandfold, past any configured XML limit.
        case recordBomb = "record-bomb"
        /// `<HealthData>` and then spaces, inflating a thousandfold.
        case whitespaceBomb = "whitespace-bomb"
        /// Elements nested a million deep.
        case deepNesting = "deep-nesting"
        /// Two hundred thousand step records, each stored, with the longest fields an import takes: a 256-byte
        /// `sourceName` and a 1,024-byte `device` whose hardware (stored as the sample's device model) is 128 bytes,
        /// each different, over the 300 days before today, every other one entered by hand.
        case largestFields = "largest-fields"
    }

    /// A zip whose `apple_health_export/export.xml` is `prefix` and then spaces, `size` bytes in all: a thousand to
    /// one, deflated.
    public static func zipBomb(inflatingTo size: Int64, prefix: String = "<HealthData locale=\"en_US\">") throws
        -> Data
    {
        let archive = try Archive(data: Data(), accessMode: .create)
        var xml = PatternXML(prefix: prefix, repeated: " ", count: max(0, Int(size) - prefix.utf8.count), suffix: "")
        try archive.addEntry(
            with: entryPath, type: .file, uncompressedSize: xml.size, compressionMethod: .deflate,
            bufferSize: 1 << 20
        ) { _, chunk in xml.next(chunk) }
        guard let data = archive.data else { throw CocoaError(.fileWriteUnknown) }
        return data
    }

    /// Writes the export of `kind` to `url` as a zip; `scale` (0 to 1] shrinks the counts, and `bombBytes` is how
    /// far the bombs inflate. Returns the size of its XML.
    @discardableResult
    public static func write(_ kind: Kind, to url: URL, scale: Double = 1, bombBytes: Int64 = 2 << 30) throws
        -> Int64
    {
        var xml = pattern(kind, scale: min(1, max(scale, 0.000_001)), bombBytes: bombBytes)
        let archive = try Archive(url: url, accessMode: .create)
        try archive.addEntry(
            with: entryPath, type: .file, uncompressedSize: xml.size, compressionMethod: .deflate,
            bufferSize: 1 << 20
        ) { _, chunk in xml.next(chunk) }
        return xml.size
    }

    static let entryPath = "apple_health_export/export.xml"
    static let head = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<HealthData locale="en_US">"# + "\n"
    static let tail = "</HealthData>\n"

    private static func record(type: String, sourceName: String = "Ada’s iPhone", value: Int = 1) -> String {
        #" <Record type="\#(type)" sourceName="\#(sourceName)" unit="count" creationDate="2025-03-10 09:11:00 -0400" "#
            + #"startDate="2025-03-10 09:00:00 -0400" endDate="2025-03-10 09:10:00 -0400" value="\#(value)"/>"# + "\n"
    }

    private static func pattern(_ kind: Kind, scale: Double, bombBytes: Int64) -> PatternXML {
        func count(_ full: Int) -> Int { max(1, Int(Double(full) * scale)) }
        switch kind {
        case .manyTypes:
            return PatternXML(prefix: head, count: count(1_000_000), suffix: tail) { index in
                record(type: "HKQuantityTypeIdentifierMadeUp" + String(format: "%010d", index))
            }
        case .longTypes:
            let long = String(repeating: "T", count: 63_990)
            return PatternXML(prefix: head, count: count(16_000), suffix: tail) { index in
                record(type: long + String(format: "%010d", index))
            }
        case .longSourceNames:
            let long = String(repeating: "S", count: 60_000)
            let step = record(type: "HKQuantityTypeIdentifierStepCount", sourceName: long)
            return PatternXML(prefix: head, repeated: step, count: count(10_000), suffix: tail)
        case .recordBomb:
            let made = record(type: "HKQuantityTypeIdentifierMadeUp")
            return PatternXML(
                prefix: head, repeated: made, count: Int(bombBytes) / made.utf8.count + 1, suffix: tail)
        case .whitespaceBomb:
            return PatternXML(prefix: head, repeated: " ", count: Int(bombBytes), suffix: tail)
        case .deepNesting:
            return PatternXML(prefix: head, repeated: "<a>", count: count(1_000_000), suffix: "")
        case .largestFields:
            let today = Int((Date().timeIntervalSince1970 / 86_400).rounded(.down))
            return PatternXML(prefix: head, count: count(200_000), suffix: tail) { index in
                largestRecord(index, today: today)
            }
        }
    }

    /// A step record of `index`, on one of the 300 days before `today` (a day number), its minute its own.
    private static func largestRecord(_ index: Int, today: Int) -> String {
        let number = String(format: "%010d", index)
        let hardware = "Watch" + String(repeating: "7", count: 113) + number
        let device =
            "&lt;&lt;HKDevice: 0x283a9c0f0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:"
            + hardware + ", software:10.3, localIdentifier:" + String(repeating: "L", count: 760) + "&gt;"
        let day = LocalDate(dayNumber: today - 1 - index % 300).description
        let minute = index / 300 % 1_440
        let time = String(format: "%02d:%02d", minute / 60, minute % 60)
        // Every other one entered by hand: the day's totals are then computed twice, with and without them.
        let entered = index.isMultiple(of: 2) ? "1" : "0"
        return
            #" <Record type="HKQuantityTypeIdentifierStepCount" sourceName="\#(String(repeating: "S", count: 246) + number)" "#
            + #"device="\#(device)" unit="count" startDate="\#(day) \#(time):00 +0000" "#
            + #"endDate="\#(day) \#(time):30 +0000" value="1">"# + "\n"
            + #"  <MetadataEntry key="HKWasUserEntered" value="\#(entered)"/>"# + "\n </Record>\n"
    }
}

/// XML made of a prefix, `count` pieces and a suffix, handed out in chunks of any size, front to back, without ever
/// being whole in memory. Every piece has the length of the first.
struct PatternXML {
    private let suffix: [UInt8]
    /// The pieces from `index` on, up to `limit` of them at once.
    private let pieces: (_ index: Int, _ limit: Int) -> (bytes: [UInt8], count: Int)
    private let count: Int
    /// The XML's length.
    let size: Int64
    private var pending: [UInt8]
    private var start = 0
    private var nextPiece = 0
    private var suffixDone = false

    init(prefix: String, count: Int, suffix: String, piece: @escaping (Int) -> String) {
        let length = piece(0).utf8.count
        self.init(prefix: prefix, count: count, pieceLength: length, suffix: suffix) { index, _ in
            (Array(piece(index).utf8), 1)
        }
    }

    /// The same piece `count` times, handed on in runs of about 64 KiB.
    init(prefix: String, repeated piece: String, count: Int, suffix: String) {
        let one = Array(piece.utf8)
        let perRun = max(1, (64 << 10) / max(1, one.count))
        let run = Array([[UInt8]](repeating: one, count: perRun).joined())
        self.init(prefix: prefix, count: count, pieceLength: one.count, suffix: suffix) { _, limit in
            limit >= perRun ? (run, perRun) : (Array(run.prefix(limit * one.count)), limit)
        }
    }

    private init(
        prefix: String, count: Int, pieceLength: Int, suffix: String,
        pieces: @escaping (Int, Int) -> (bytes: [UInt8], count: Int)
    ) {
        self.suffix = Array(suffix.utf8)
        self.pieces = pieces
        self.count = count
        pending = Array(prefix.utf8)
        size = Int64(pending.count) + Int64(pieceLength) * Int64(count) + Int64(self.suffix.count)
    }

    /// The next `size` bytes.
    mutating func next(_ size: Int) -> Data {
        while pending.count - start < size {
            if start > 0 {
                pending.removeFirst(start)
                start = 0
            }
            if nextPiece < count {
                let (bytes, made) = pieces(nextPiece, count - nextPiece)
                pending += bytes
                nextPiece += made
            } else if !suffixDone {
                pending += suffix
                suffixDone = true
            } else {
                break
            }
        }
        let end = min(pending.count, start + size)
        let chunk = Data(pending[start..<end])
        start = end
        return chunk
    }
}
