import Foundation
import Zlib

/// One file inside a zip archive, found through the archive's central directory (APPNOTE 4.3.12, with ZIP64's
/// 4.3.14–4.3.15 and 4.5.3), and its data inflated by zlib from exactly the bytes the directory says it has.
///
/// Not ZIPFoundation's reader: on Linux it reads an entry until its deflate stream ends, and an archive whose stream
/// ends past the file's last byte made it read nothing for ever (a 771-byte zip held a thread until killed: found by
/// the `health-export-zip` fuzz target); and it tells zlib that every chunk is a full buffer long, so a stored block
/// that claims more bytes than the last chunk holds has zlib copy memory beyond it into the XML. Here zlib is told
/// exactly how many bytes each chunk holds, and is given the entry's compressed bytes and no more: a stream that
/// wants more is a cut-off archive, an error.
struct ZipEntry {
    let path: String
    /// 0 stored, 8 deflated.
    let method: UInt16
    let crc32: UInt32
    let compressedSize: UInt64
    let uncompressedSize: UInt64
    let localHeaderOffset: UInt64

    /// The largest central directory read: about 100,000 entries of 80 bytes (workout routes, electrocardiograms),
    /// read whole into memory, so kept well below the import's memory budget.
    static let maximumDirectoryBytes: UInt64 = 8 << 20

    /// The first file entry `wanted` accepts by its path.
    static func find(in handle: FileHandle, size: UInt64, where wanted: (String) -> Bool) throws -> ZipEntry? {
        let (offset, length) = try directory(in: handle, size: size)
        try handle.seek(toOffset: offset)
        let bytes = Array(try handle.read(upToCount: Int(length)) ?? Data())
        guard UInt64(bytes.count) == length else { throw Self.malformed("its central directory is cut off") }
        var cursor = 0
        while cursor + 46 <= bytes.count, bytes.uint32(at: cursor) == 0x0201_4b50 {
            let nameLength = Int(bytes.uint16(at: cursor + 28))
            let extraLength = Int(bytes.uint16(at: cursor + 30))
            let commentLength = Int(bytes.uint16(at: cursor + 32))
            let end = cursor + 46 + nameLength + extraLength + commentLength
            guard end <= bytes.count else { throw Self.malformed("an entry runs past its central directory") }
            let name = String(decoding: bytes[(cursor + 46)..<(cursor + 46 + nameLength)], as: UTF8.self)
            let extra = bytes[(cursor + 46 + nameLength)..<(cursor + 46 + nameLength + extraLength)]
            if !name.hasSuffix("/"), wanted(name) {
                var compressed = UInt64(bytes.uint32(at: cursor + 20))
                var uncompressed = UInt64(bytes.uint32(at: cursor + 24))
                var local = UInt64(bytes.uint32(at: cursor + 42))
                try Self.applyZIP64(extra, uncompressed: &uncompressed, compressed: &compressed, offset: &local)
                return ZipEntry(
                    path: name, method: bytes.uint16(at: cursor + 10), crc32: bytes.uint32(at: cursor + 16),
                    compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: local)
            }
            cursor = end
        }
        return nil
    }

    /// Hands on the entry's data, inflated, in chunks of at most `chunkSize`; checks its CRC-32 at the end.
    func read(from handle: FileHandle, size: UInt64, chunkSize: Int, _ consumer: (Data) throws -> Void) throws {
        guard localHeaderOffset <= size, size - localHeaderOffset >= 30 else {
            throw Self.malformed("an entry's local header is past the file's end")
        }
        try handle.seek(toOffset: localHeaderOffset)
        let header = Array(try handle.read(upToCount: 30) ?? Data())
        guard header.count == 30, header.uint32(at: 0) == 0x0403_4b50 else {
            throw Self.malformed("an entry's local header is not one")
        }
        let start = localHeaderOffset + 30 + UInt64(header.uint16(at: 26)) + UInt64(header.uint16(at: 28))
        guard start <= size, compressedSize <= size - start else {
            throw Self.malformed("export.xml's compressed data runs past the file's end")
        }
        try handle.seek(toOffset: start)
        var compressed = CompressedBytes(handle: handle, remaining: compressedSize)
        var checksum = Zlib.crc32(0, nil, 0)
        func take(_ data: Data) throws {
            checksum = data.withUnsafeBytes { Zlib.crc32(checksum, $0.baseAddress, UInt32($0.count)) }
            try consumer(data)
        }
        switch method {
        case 0:
            while let data = try compressed.next(upTo: chunkSize) { try take(data) }
        case 8:
            try Self.inflate(&compressed, chunkSize: chunkSize, take)
        default:
            throw ExportError("export.xml in the zip archive is compressed in a way Hale does not read (\(method)).")
        }
        guard UInt32(checksum) == crc32 else { throw Self.malformed("export.xml's checksum does not match its data") }
    }

    /// The entry's compressed bytes, read from the file a chunk at a time and never past their end.
    private struct CompressedBytes {
        let handle: FileHandle
        var remaining: UInt64

        /// The next chunk, at most `limit` bytes; nil once all are read.
        mutating func next(upTo limit: Int) throws -> Data? {
            let count = Int(min(UInt64(limit), remaining))
            guard count > 0 else { return nil }
            let data = try handle.read(upToCount: count) ?? Data()
            guard data.count == count else { throw ZipEntry.malformed("export.xml is cut off") }
            remaining -= UInt64(count)
            return data
        }
    }

    /// Inflates a raw deflate stream (RFC 1951), telling zlib exactly how many bytes each chunk holds.
    private static func inflate(
        _ compressed: inout CompressedBytes, chunkSize: Int, _ take: (Data) throws -> Void
    ) throws {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw malformed("zlib cannot start")
        }
        defer { inflateEnd(&stream) }
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { output.deallocate() }
        var ended = false
        while !ended {
            guard let chunk = try compressed.next(upTo: chunkSize) else {
                throw malformed("export.xml's deflate stream ends after the entry's bytes")
            }
            try chunk.withUnsafeBytes { input in
                guard let base = input.bindMemory(to: UInt8.self).baseAddress else { return }
                stream.next_in = UnsafeMutablePointer(mutating: base)
                stream.avail_in = UInt32(input.count)
                // Until zlib has taken the whole chunk, or the stream ends.
                repeat {
                    stream.next_out = output
                    stream.avail_out = UInt32(chunkSize)
                    let result = Zlib.inflate(&stream, Z_NO_FLUSH)
                    guard result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR else {
                        throw malformed("export.xml's compressed data is not deflate")
                    }
                    let produced = chunkSize - Int(stream.avail_out)
                    if produced > 0 { try take(Data(bytes: output, count: produced)) }
                    ended = result == Z_STREAM_END
                } while !ended && (stream.avail_in > 0 || stream.avail_out == 0)
            }
        }
    }

    /// Where the central directory is and how long: from the end-of-central-directory record, or ZIP64's.
    private static func directory(in handle: FileHandle, size: UInt64) throws -> (offset: UInt64, length: UInt64) {
        // The record is 22 bytes and may be followed by a comment of up to 65,535.
        let tailLength = min(size, 22 + 65_535)
        try handle.seek(toOffset: size - tailLength)
        let tail = Array(try handle.read(upToCount: Int(tailLength)) ?? Data())
        guard tail.count >= 22,
            let record = stride(from: tail.count - 22, through: 0, by: -1).first(where: {
                tail.uint32(at: $0) == 0x0605_4b50
            })
        else {
            throw malformed("it has no end of central directory")
        }
        var offset = UInt64(tail.uint32(at: record + 16))
        var length = UInt64(tail.uint32(at: record + 12))
        if offset == 0xFFFF_FFFF || length == 0xFFFF_FFFF, record >= 20, tail.uint32(at: record - 20) == 0x0706_4b50 {
            let zip64Record = tail.uint64(at: record - 12)
            guard zip64Record <= size, size - zip64Record >= 56 else { throw malformed("its ZIP64 record is not one") }
            try handle.seek(toOffset: zip64Record)
            let fields = Array(try handle.read(upToCount: 56) ?? Data())
            guard fields.count == 56, fields.uint32(at: 0) == 0x0606_4b50 else {
                throw malformed("its ZIP64 record is not one")
            }
            length = fields.uint64(at: 40)
            offset = fields.uint64(at: 48)
        }
        guard offset <= size, length <= size - offset else { throw malformed("its central directory is out of it") }
        guard length <= maximumDirectoryBytes else {
            throw ExportError("The zip archive lists more files than an Apple Health export does.")
        }
        return (offset, length)
    }

    /// The ZIP64 extended information extra field (0x0001): the values the fixed fields left at 0xFFFFFFFF, in order.
    private static func applyZIP64(
        _ extra: ArraySlice<UInt8>, uncompressed: inout UInt64, compressed: inout UInt64, offset: inout UInt64
    ) throws {
        var cursor = extra.startIndex
        while cursor + 4 <= extra.endIndex {
            let id = extra.uint16(at: cursor)
            let length = Int(extra.uint16(at: cursor + 2))
            let body = cursor + 4
            guard body + length <= extra.endIndex else { throw malformed("an extra field runs past its entry") }
            if id == 0x0001 {
                var field = body
                func next() throws -> UInt64 {
                    guard field + 8 <= body + length else { throw malformed("its ZIP64 field is short") }
                    defer { field += 8 }
                    return extra.uint64(at: field)
                }
                if uncompressed == 0xFFFF_FFFF { uncompressed = try next() }
                if compressed == 0xFFFF_FFFF { compressed = try next() }
                if offset == 0xFFFF_FFFF { offset = try next() }
            }
            cursor = body + length
        }
    }

    fileprivate static func malformed(_ what: String) -> ExportError {
        ExportError("The zip archive cannot be read (is it complete?): \(what).")
    }
}

extension Collection where Element == UInt8, Index == Int {
    /// The little-endian integer at `offset`.
    fileprivate func uint16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    fileprivate func uint32(at offset: Int) -> UInt32 {
        UInt32(uint16(at: offset)) | UInt32(uint16(at: offset + 2)) << 16
    }

    fileprivate func uint64(at offset: Int) -> UInt64 {
        UInt64(uint32(at: offset)) | UInt64(uint32(at: offset + 4)) << 32
    }
}
