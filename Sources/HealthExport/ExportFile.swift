import Foundation

/// An export as the Health app writes it, `export.zip` holding `apple_health_export/export.xml`, or that XML on its
/// own: read in chunks, never whole.
public enum ExportFile {
    /// The size of each chunk handed on.
    public static let chunkSize = 256 << 10

    /// What `read` says of its progress: bytes of XML read, and the share of the file done.
    public struct Progress: Sendable {
        /// Bytes of XML read.
        public let bytesRead: Int64
        /// The share of the file read, 0 to 1.
        public let fraction: Double
    }

    /// Calls `chunk` with the export's XML, chunk by chunk, from a zip or an XML file, each with how far the file
    /// is read once it is handled; from byte `offset` of the XML on, when given. More than `limit` bytes of XML (a
    /// zip whose entry inflates without end) is an `ExportError` as soon as the XML passes it.
    public static func read(
        _ url: URL, from offset: Int64 = 0, limit: Int64 = .max, _ chunk: (Data, Progress) throws -> Void
    ) throws {
        let handle = try FileHandle(forReadingFrom: url)
        let magic = try handle.read(upToCount: 4) ?? Data()
        try handle.close()
        try withoutActuallyEscaping(chunk) { chunk in
            var reading = Reading(offset: offset, limit: limit, chunk: chunk)
            try read(url, magic: magic, &reading)
        }
    }

    private static func read(_ url: URL, magic: Data, _ reading: inout Reading) throws {
        if magic.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            try readZip(url, &reading)
        } else if magic.starts(with: Array("<".utf8)) || magic.starts(with: [0xEF, 0xBB, 0xBF]) {
            try readXML(url, &reading)
        } else {
            throw ExportError("This file is neither a zip archive nor XML: export.zip or export.xml is expected.")
        }
    }

    static func tooLong(_ limit: Int64) -> ExportError {
        ExportError("export.xml is longer than \(limit) bytes, the most this server imports.")
    }

    /// Hands on the XML from `offset`, counting it against `limit`.
    private struct Reading {
        let offset: Int64
        let limit: Int64
        let chunk: (Data, Progress) throws -> Void
        /// Bytes of XML so far, those before `offset` included.
        var position: Int64 = 0

        init(offset: Int64, limit: Int64, chunk: @escaping (Data, Progress) throws -> Void) {
            self.offset = offset
            self.limit = limit
            self.chunk = chunk
        }

        mutating func take(_ data: Data, total: Int64) throws {
            let start = position
            position += Int64(data.count)
            guard position <= limit else { throw ExportFile.tooLong(limit) }
            guard position > offset else { return }
            let fraction = total > 0 ? min(1, Double(position) / Double(total)) : 0
            let skipped = Int(max(0, offset - start))
            try chunk(skipped == 0 ? data : data.dropFirst(skipped), Progress(bytesRead: position, fraction: fraction))
        }
    }

    private static func readXML(_ url: URL, _ reading: inout Reading) throws {
        let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
        guard size <= reading.limit else { throw tooLong(reading.limit) }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        if reading.offset > 0 {
            try handle.seek(toOffset: UInt64(reading.offset))
            reading.position = reading.offset
        }
        while let data = try handle.read(upToCount: chunkSize), !data.isEmpty {
            try reading.take(data, total: size)
        }
    }

    private static func readZip(_ url: URL, _ reading: inout Reading) throws {
        let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.uint64Value ?? 0
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let found: ZipEntry?
        do {
            found = try ZipEntry.find(in: handle, size: size) {
                $0 == "apple_health_export/export.xml" || $0.hasSuffix("/export.xml") || $0 == "export.xml"
            }
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError("The zip archive cannot be read (is it complete?): \(error).")
        }
        guard let entry = found else { throw ExportError("The zip archive holds no apple_health_export/export.xml.") }
        // What the archive declares, for progress only: the bytes that arrive are what is counted.
        let total = Int64(clamping: entry.uncompressedSize)
        do {
            try entry.read(from: handle, size: size, chunkSize: chunkSize) { data in
                try reading.take(data, total: total)
            }
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError("export.xml in the zip archive cannot be read (is it complete?): \(error).")
        }
    }

    /// The chunks of `read` as an async sequence, read on a thread of their own at most two chunks ahead of the
    /// consumer, so an async caller can await between chunks while memory stays bounded.
    public static func chunks(_ url: URL) -> OffThreadSequence<(data: Data, progress: Progress)> {
        OffThreadSequence(ahead: 2) { yield in try read(url) { try yield(($0, $1)) } }
    }
}

/// What `produce` makes, made on a thread of its own at most `ahead` elements before the consumer takes them: work
/// that keeps a core busy (reading and parsing a file) runs beside the consumer's, and off the threads that serve
/// requests, while memory stays bounded. A consumer that stops early stops the producer at its next element.
public struct OffThreadSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// Hands one element to the consumer, waiting while `ahead` are untaken; throws once the consumer has gone.
    public typealias Yield = (Element) throws -> Void

    let ahead: Int
    let produce: @Sendable (Yield) throws -> Void

    /// A sequence whose elements `produce` makes, running at most `ahead` elements before the consumer.
    public init(ahead: Int, produce: @escaping @Sendable (Yield) throws -> Void) {
        self.ahead = Swift.max(1, ahead)
        self.produce = produce
    }

    /// Starts the producer on a thread of its own.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self)
        // Created at zero and signalled up to `ahead`: libdispatch traps when a semaphore is freed below its initial
        // value, which a consumer that stops early would leave.
        let permits = DispatchSemaphore(value: 0)
        for _ in 0..<ahead { permits.signal() }
        let stopped = StopFlag()
        continuation.onTermination = { _ in
            stopped.stop()
            permits.signal()
        }
        let produce = produce
        Thread.detachNewThread {
            Self.yieldCPUToOtherThreads()
            do {
                try produce { element in
                    permits.wait()
                    guard !stopped.isStopped else { throw CancellationError() }
                    continuation.yield(element)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return Iterator(base: stream.makeAsyncIterator(), permits: permits)
    }

    /// Lowers this thread's priority (on Linux a nice value is a thread's, and `0` names the calling one): work a few
    /// elements ahead must not take the CPU from the threads that serve requests, nor from the consumer it feeds.
    private static func yieldCPUToOtherThreads() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
    }

    /// Hands out the elements, letting the producer run `ahead`.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.AsyncIterator
        let permits: DispatchSemaphore

        /// The next element, or `nil` when the producer is done.
        public mutating func next() async throws -> Element? {
            let element = try await base.next()
            permits.signal()
            return element
        }
    }
}

/// Set once, read from the producing thread.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false

    var isStopped: Bool { lock.withLock { stopped } }

    func stop() { lock.withLock { stopped = true } }
}
