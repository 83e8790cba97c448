/// A recursive-descent reader over a byte buffer that enforces the limits of a ``CBORDecoder``.
struct CBORParser {
    private let bytes: [UInt8]
    private let limits: CBORDecoder
    /// The offset of the next unread byte.
    private(set) var position = 0

    init(bytes: [UInt8], limits: CBORDecoder) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Reads one complete data item. `depth` is the number of containers already enclosing it.
    mutating func parseItem(depth: Int) throws(CBORError) -> CBORValue {
        let head = try readHead()
        switch head.majorType {
        case .unsignedInteger: return .unsignedInteger(head.argument)
        case .negativeInteger: return .negativeInteger(head.argument)
        case .byteString: return try .byteString(Array(readString(head)))
        case .textString: return try .textString(readText(head))
        case .array: return try parseArray(head, depth: depth + 1)
        case .map: return try parseMap(head, depth: depth + 1)
        case .tag: return try parseTag(head, depth: depth + 1)
        case .simpleOrFloat: return try simpleOrFloat(head)
        }
    }

    // MARK: - Heads

    private mutating func readHead() throws(CBORError) -> CBORHead {
        let offset = position
        let initialByte = try take(1, forItemAt: offset)[offset]
        let major = MajorType(initialByte: initialByte)
        let info = initialByte & 0x1f
        let argument = try readArgument(info: info, major: major, itemOffset: offset)
        return CBORHead(majorType: major, additionalInfo: info, argument: argument, offset: offset)
    }

    private mutating func readArgument(info: UInt8, major: MajorType, itemOffset: Int) throws(CBORError) -> UInt64 {
        switch info {
        case ..<AdditionalInfo.oneByteArgument:
            return UInt64(info)
        case AdditionalInfo.oneByteArgument...AdditionalInfo.eightByteArgument:
            let byteCount = 1 << (info - AdditionalInfo.oneByteArgument)
            return try take(Int(byteCount), forItemAt: itemOffset).reduce(0) { $0 << 8 | UInt64($1) }
        case AdditionalInfo.indefinite:
            throw CBORError(Self.indefiniteCode(for: major), offset: itemOffset)
        default:
            throw CBORError(.reservedAdditionalInfo, offset: itemOffset)
        }
    }

    private static func indefiniteCode(for major: MajorType) -> CBORError.Code {
        switch major {
        case .byteString, .textString, .array, .map: .indefiniteLength
        case .simpleOrFloat: .unexpectedBreak
        case .unsignedInteger, .negativeInteger, .tag: .reservedAdditionalInfo
        }
    }

    /// Consumes `count` bytes, or throws ``CBORError/Code/truncated`` for the item starting at `itemOffset`.
    private mutating func take(_ count: Int, forItemAt itemOffset: Int) throws(CBORError) -> ArraySlice<UInt8> {
        guard count <= bytes.count - position else { throw CBORError(.truncated, offset: itemOffset) }
        defer { position += count }
        return bytes[position..<position + count]
    }

    // MARK: - Strings

    private mutating func readString(_ head: CBORHead) throws(CBORError) -> ArraySlice<UInt8> {
        let length = try checkedLength(head)
        return try take(length, forItemAt: head.offset)
    }

    private mutating func readText(_ head: CBORHead) throws(CBORError) -> String {
        let utf8 = try readString(head)
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw CBORError(.invalidUTF8, offset: head.offset)
        }
        return text
    }

    private func checkedLength(_ head: CBORHead) throws(CBORError) -> Int {
        guard head.argument <= UInt64(limits.maximumLength) else {
            throw CBORError(.lengthLimitExceeded, offset: head.offset)
        }
        return Int(head.argument)
    }

    // MARK: - Containers

    /// The element count of an array or map, checked against the limit and against the bytes left,
    /// so that a huge declared count cannot make the parser reserve memory it will never fill.
    private func checkedCount(_ head: CBORHead, minimumBytesPerElement: Int) throws(CBORError) -> Int {
        let count = try checkedLength(head)
        guard count <= (bytes.count - position) / minimumBytesPerElement else {
            throw CBORError(.truncated, offset: head.offset)
        }
        return count
    }

    private func checkDepth(_ depth: Int, _ head: CBORHead) throws(CBORError) {
        guard depth <= limits.maximumDepth else { throw CBORError(.depthLimitExceeded, offset: head.offset) }
    }

    private mutating func parseArray(_ head: CBORHead, depth: Int) throws(CBORError) -> CBORValue {
        try checkDepth(depth, head)
        let count = try checkedCount(head, minimumBytesPerElement: 1)
        var elements: [CBORValue] = []
        elements.reserveCapacity(count)
        for _ in 0..<count {
            elements.append(try parseItem(depth: depth))
        }
        return .array(elements)
    }

    private mutating func parseMap(_ head: CBORHead, depth: Int) throws(CBORError) -> CBORValue {
        try checkDepth(depth, head)
        let count = try checkedCount(head, minimumBytesPerElement: 2)
        var entries: [CBORMapEntry] = []
        entries.reserveCapacity(count)
        var seenKeys: Set<CBORValue> = []
        for _ in 0..<count {
            entries.append(try parseEntry(depth: depth, seenKeys: &seenKeys))
        }
        return .map(entries)
    }

    private mutating func parseEntry(depth: Int, seenKeys: inout Set<CBORValue>) throws(CBORError) -> CBORMapEntry {
        let keyOffset = position
        let key = try parseItem(depth: depth)
        guard seenKeys.insert(key).inserted else { throw CBORError(.duplicateMapKey, offset: keyOffset) }
        return CBORMapEntry(key: key, value: try parseItem(depth: depth))
    }

    private mutating func parseTag(_ head: CBORHead, depth: Int) throws(CBORError) -> CBORValue {
        try checkDepth(depth, head)
        return .tagged(head.argument, try parseItem(depth: depth))
    }

    // MARK: - Simple values and floats

    private func simpleOrFloat(_ head: CBORHead) throws(CBORError) -> CBORValue {
        switch head.additionalInfo {
        case AdditionalInfo.simpleFalse: return .boolean(false)
        case AdditionalInfo.simpleTrue: return .boolean(true)
        case AdditionalInfo.simpleNull: return .null
        case AdditionalInfo.simpleUndefined: return .undefined
        case AdditionalInfo.twoByteArgument:
            return .float(HalfPrecision.double(fromBits: UInt16(truncatingIfNeeded: head.argument)))
        case AdditionalInfo.fourByteArgument:
            return .float(Double(Float(bitPattern: UInt32(truncatingIfNeeded: head.argument))))
        case AdditionalInfo.eightByteArgument:
            return .float(Double(bitPattern: head.argument))
        default:
            throw CBORError(.unsupportedSimpleValue, offset: head.offset)
        }
    }
}
