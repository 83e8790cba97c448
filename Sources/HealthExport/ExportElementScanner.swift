/// Finds the tags of an XML document fed to it in chunks of any size, holding at most one tag in memory.
///
/// It reads the XML the Health app writes, not XML in general: the declaration, the `DOCTYPE` with its internal
/// subset, comments and text are skipped; only the five predefined entities and character references are decoded.
/// A document that declares entities of its own cannot use them (an undeclared entity is an error), so entity
/// expansion, and the "billion laughs" that abuses it, cannot happen. A tag longer than `maximumTagBytes`, or a
/// `DOCTYPE` longer than `maximumDoctypeBytes`, is an error: memory stays bounded whatever the input.
public struct ExportElementScanner: Sendable {
    /// The longest tag: a `Record` with every attribute is well under 2 KiB.
    public static let maximumTagBytes = 64 << 10
    /// The longest `DOCTYPE`: Apple's is about 9 KiB.
    public static let maximumDoctypeBytes = 1 << 20

    private enum State: Sendable {
        case text
        case markup
    }

    private var state = State.text
    private var pending: [UInt8] = []
    /// The quote the tag being read is inside, if any, and how deep it is in a `DOCTYPE`'s `[…]`: kept byte by byte,
    /// so a `>` inside quotes or brackets costs nothing to recognise, however many come.
    private var quote: UInt8?
    private var depth = 0
    /// Bytes consumed so far, for error messages and progress.
    public private(set) var offset: Int64 = 0

    /// The attributes elements keep: all when `nil`.
    private let keeping: [String]?

    /// A scanner at the start of a document, whose elements keep only the attributes named in `keeping` when it
    /// is given (all are still checked): reading only what a pass needs saves most of the work. A scanner that
    /// starts at `offset` reads a document from there on, between two tags.
    public init(keeping: [String]? = nil, startingAt offset: Int64 = 0) {
        self.keeping = keeping
        self.offset = offset
    }

    /// Scans the next chunk, calling `element` for each complete tag, in order.
    public mutating func feed(_ chunk: some Collection<UInt8>, _ element: (ExportElement) throws -> Void) throws {
        if let contiguous = try chunk.withContiguousStorageIfAvailable({ try feed(bytes: $0, element) }) {
            return contiguous
        }
        try Array(chunk).withUnsafeBufferPointer { try feed(bytes: $0, element) }
    }

    /// `feed` over bytes in memory: a loop the compiler specialises, where a generic collection from another module
    /// would cost a call through its witness table for every byte. Text between tags is skipped, and an element's
    /// tag copied, a run at a time; declarations, comments and the `DOCTYPE` go byte by byte.
    private mutating func feed(bytes chunk: UnsafeBufferPointer<UInt8>, _ element: (ExportElement) throws -> Void)
        throws
    {
        var index = 0
        while index < chunk.count {
            switch state {
            case .text:
                let start = index
                while index < chunk.count, chunk[index] != UInt8(ascii: "<") { index += 1 }
                offset += Int64(index - start)
                guard index < chunk.count else { return }
                index += 1
                offset += 1
                state = .markup
                pending.removeAll(keepingCapacity: true)
                quote = nil
                depth = 0
            case .markup:
                let first = pending.first ?? chunk[index]
                if first == UInt8(ascii: "!") || first == UInt8(ascii: "?") {
                    try feedMarkup(chunk[index], element)
                    index += 1
                } else {
                    index = try feedElementTag(chunk, from: index, element)
                }
            }
        }
    }

    /// Reads an element's tag from `index` up to its `>` outside quotes, or to the chunk's end; returns where it
    /// stopped.
    private mutating func feedElementTag(
        _ chunk: UnsafeBufferPointer<UInt8>, from start: Int, _ element: (ExportElement) throws -> Void
    ) throws -> Int {
        var index = start
        var closed = false
        while index < chunk.count {
            let byte = chunk[index]
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                closed = true
                break
            }
        }
        pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<index]))
        offset += Int64(index - start)
        if closed {
            state = .text
            var found = try ExportTagParser.element(from: pending.dropLast(), at: tagStart, keeping: keeping)
            found.end = offset
            try element(found)
        } else {
            try checkLength()
        }
        return index
    }

    /// One byte of a declaration, comment or `DOCTYPE`.
    private mutating func feedMarkup(_ byte: UInt8, _ element: (ExportElement) throws -> Void) throws {
        offset += 1
        pending.append(byte)
        track(byte)
        if byte == UInt8(ascii: ">"), let complete = try markup() {
            state = .text
            if var found = complete {
                found.end = offset
                try element(found)
            }
        } else {
            try checkLength()
        }
    }

    /// Ends the document: an unfinished tag is an error.
    public func finish() throws {
        if case .markup = state {
            throw ExportError("The file ends inside a tag (at byte \(offset)): it is truncated.")
        }
    }

    /// Where the tag being read starts: the position of its `<`, counting from 0.
    private var tagStart: Int64 { offset - Int64(pending.count) - 1 }

    private func checkLength() throws {
        let limit = pending.first == UInt8(ascii: "!") ? Self.maximumDoctypeBytes : Self.maximumTagBytes
        guard pending.count <= limit else {
            throw ExportError("A tag at byte \(tagStart) is longer than \(limit) bytes.")
        }
    }

    private mutating func track(_ byte: UInt8) {
        if let open = quote {
            if byte == open { quote = nil }
        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            quote = byte
        } else if byte == UInt8(ascii: "[") {
            depth += 1
        } else if byte == UInt8(ascii: "]") {
            depth -= 1
        }
    }

    /// The markup in `pending` (after `<`, through `>`): `nil` when it is not complete yet (a `>` inside a comment,
    /// a `DOCTYPE`'s subset or an attribute value), `.some(nil)` when complete but not an element.
    private func markup() throws -> ExportElement?? {
        let bytes = pending
        switch bytes.first {
        case UInt8(ascii: "?"):
            return bytes.count >= 2 && bytes[bytes.count - 2] == UInt8(ascii: "?") ? .some(.none) : nil
        case UInt8(ascii: "!"):
            if bytes.starts(with: Array("!--".utf8)) {
                return bytes.count >= 5 && bytes.suffix(3).elementsEqual("-->".utf8) ? .some(.none) : nil
            }
            // A `DOCTYPE` ends at a `>` outside its `[…]` subset and outside quotes.
            return depth <= 0 && quote == nil ? .some(.none) : nil
        default:
            guard quote == nil else { return nil }
            return .some(try ExportTagParser.element(from: bytes.dropLast(), at: tagStart, keeping: keeping))
        }
    }
}
