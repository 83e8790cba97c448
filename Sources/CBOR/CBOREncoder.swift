/// Encodes ``CBORValue`` into CBOR bytes (RFC 8949) using definite lengths and shortest-form heads.
///
/// Integers, lengths and tags use the shortest head that holds them. A float uses the narrowest of half,
/// single and double precision that represents it exactly, and every NaN becomes `0xf9 0x7e 0x00`.
/// Map entries are written in the order given; use ``canonicalMapOrder(_:)`` first when CTAP2 canonical
/// order is required. Duplicate keys are not checked.
public struct CBOREncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Encodes a value.
    /// - Parameter value: The value to encode.
    /// - Returns: The encoded bytes.
    public func encode(_ value: CBORValue) -> [UInt8] {
        var output: [UInt8] = []
        append(value, to: &output)
        return output
    }

    /// Sorts map entries into CTAP2 canonical order by their encoded keys: lower major type first, then
    /// shorter encoding first, then bytewise lexical order. Only the given level is sorted, not nested maps.
    ///
    /// For integer and text-string keys, the only kinds CTAP2 and COSE use, this equals the RFC 8949
    /// §4.2.1 bytewise order; the two differ only for keys such as arrays or floats.
    /// - Parameter entries: Map entries in any order.
    /// - Returns: The same entries in canonical order.
    public static func canonicalMapOrder(_ entries: [CBORMapEntry]) -> [CBORMapEntry] {
        let encoder = CBOREncoder()
        let keyed = entries.map { (encodedKey: encoder.encode($0.key), entry: $0) }
        return keyed.sorted { ctap2Precedes($0.encodedKey, $1.encodedKey) }.map(\.entry)
    }

    static func ctap2Precedes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        let lhsMajor = (lhs.first ?? 0) >> 5
        let rhsMajor = (rhs.first ?? 0) >> 5
        if lhsMajor != rhsMajor { return lhsMajor < rhsMajor }
        if lhs.count != rhs.count { return lhs.count < rhs.count }
        return lhs.lexicographicallyPrecedes(rhs)
    }

    // MARK: - Items

    private func append(_ value: CBORValue, to output: inout [UInt8]) {
        switch value {
        case .unsignedInteger(let n): appendHead(.unsignedInteger, n, to: &output)
        case .negativeInteger(let n): appendHead(.negativeInteger, n, to: &output)
        case .byteString(let bytes): appendString(.byteString, bytes, to: &output)
        case .textString(let text): appendString(.textString, Array(text.utf8), to: &output)
        case .array(let elements): appendArray(elements, to: &output)
        case .map(let entries): appendMap(entries, to: &output)
        case .tagged(let tag, let content):
            appendHead(.tag, tag, to: &output)
            append(content, to: &output)
        case .boolean(let flag):
            appendSimple(flag ? AdditionalInfo.simpleTrue : AdditionalInfo.simpleFalse, to: &output)
        case .null: appendSimple(AdditionalInfo.simpleNull, to: &output)
        case .undefined: appendSimple(AdditionalInfo.simpleUndefined, to: &output)
        case .float(let number): appendFloat(number, to: &output)
        }
    }

    private func appendString(_ major: MajorType, _ bytes: [UInt8], to output: inout [UInt8]) {
        appendHead(major, UInt64(bytes.count), to: &output)
        output.append(contentsOf: bytes)
    }

    private func appendArray(_ elements: [CBORValue], to output: inout [UInt8]) {
        appendHead(.array, UInt64(elements.count), to: &output)
        for element in elements {
            append(element, to: &output)
        }
    }

    private func appendMap(_ entries: [CBORMapEntry], to output: inout [UInt8]) {
        appendHead(.map, UInt64(entries.count), to: &output)
        for entry in entries {
            append(entry.key, to: &output)
            append(entry.value, to: &output)
        }
    }

    private func appendSimple(_ info: UInt8, to output: inout [UInt8]) {
        output.append(MajorType.simpleOrFloat.initialByte(additionalInfo: info))
    }

    private func appendFloat(_ number: Double, to output: inout [UInt8]) {
        if let half = HalfPrecision.bits(exactly: number) {
            appendHead(.simpleOrFloat, info: AdditionalInfo.twoByteArgument, UInt64(half), to: &output)
        } else if let single = Float(exactly: number) {
            appendHead(.simpleOrFloat, info: AdditionalInfo.fourByteArgument, UInt64(single.bitPattern), to: &output)
        } else {
            appendHead(.simpleOrFloat, info: AdditionalInfo.eightByteArgument, number.bitPattern, to: &output)
        }
    }

    // MARK: - Heads

    /// Appends the shortest head for `argument`.
    private func appendHead(_ major: MajorType, _ argument: UInt64, to output: inout [UInt8]) {
        switch argument {
        case ..<UInt64(AdditionalInfo.oneByteArgument):
            output.append(major.initialByte(additionalInfo: UInt8(argument)))
        case ...0xff: appendHead(major, info: AdditionalInfo.oneByteArgument, argument, to: &output)
        case ...0xffff: appendHead(major, info: AdditionalInfo.twoByteArgument, argument, to: &output)
        case ...0xffff_ffff: appendHead(major, info: AdditionalInfo.fourByteArgument, argument, to: &output)
        default: appendHead(major, info: AdditionalInfo.eightByteArgument, argument, to: &output)
        }
    }

    /// Appends an initial byte with additional information 24–27 and a big-endian argument of matching width.
    private func appendHead(_ major: MajorType, info: UInt8, _ argument: UInt64, to output: inout [UInt8]) {
        output.append(major.initialByte(additionalInfo: info))
        let byteCount = 1 << (info - AdditionalInfo.oneByteArgument)
        for index in (0..<byteCount).reversed() {
            output.append(UInt8(truncatingIfNeeded: argument >> (8 * index)))
        }
    }
}
