/// The eight CBOR major types (RFC 8949 §3.1), held in the top three bits of an initial byte.
enum MajorType: UInt8, Sendable {
    case unsignedInteger = 0
    case negativeInteger = 1
    case byteString = 2
    case textString = 3
    case array = 4
    case map = 5
    case tag = 6
    case simpleOrFloat = 7

    /// The major type of an initial byte.
    init(initialByte: UInt8) {
        // Every 3-bit value is a case, so the fallback is never used.
        self = MajorType(rawValue: initialByte >> 5) ?? .simpleOrFloat
    }

    /// The initial byte combining this major type with the low five bits of additional information.
    func initialByte(additionalInfo: UInt8) -> UInt8 {
        rawValue << 5 | additionalInfo
    }
}

/// Additional-information values (the low five bits of an initial byte) with a fixed meaning.
enum AdditionalInfo {
    /// The smallest value that is not an immediate argument: a 1-byte argument follows.
    static let oneByteArgument: UInt8 = 24
    /// A 2-byte argument (or half-precision float) follows.
    static let twoByteArgument: UInt8 = 25
    /// A 4-byte argument (or single-precision float) follows.
    static let fourByteArgument: UInt8 = 26
    /// An 8-byte argument (or double-precision float) follows.
    static let eightByteArgument: UInt8 = 27
    /// Indefinite length, or the break stop code under major type 7.
    static let indefinite: UInt8 = 31
    /// Simple values under major type 7.
    static let simpleFalse: UInt8 = 20
    static let simpleTrue: UInt8 = 21
    static let simpleNull: UInt8 = 22
    static let simpleUndefined: UInt8 = 23
}
