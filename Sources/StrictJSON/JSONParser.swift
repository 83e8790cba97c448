/// Reads RFC 8259 JSON in one pass, with the limits a server needs and no decoder's guessing.
///
/// Beyond RFC 8259 it refuses what no client of Hale sends on purpose: nesting deeper than `defaultMaximumDepth`,
/// more than `defaultMaximumElements` array items and object members, an object naming a member twice, U+0000 in a string, unpaired surrogates, text that is not UTF-8, and numbers
/// beyond a `Double`. Each container and string is visited once, so the cost is linear in the bytes whatever their
/// shape (Foundation's `Decodable` tries each kind of value in turn, and deep input made that quadratic).
public enum JSONParser {
    /// How deep arrays and objects may nest: far more than any body or token Hale reads.
    public static let defaultMaximumDepth = 32

    /// How many array items and object members one text may hold in all: fifty for each sample of the largest
    /// batch Hale takes (10,000), and few enough that the values a 16 MiB body can hold stay tens of MB in memory
    /// (eight million one-digit items in a 16 MiB array took a decoder past 460 MB).
    public static let defaultMaximumElements = 500_000

    /// The value the bytes hold, or why they hold none.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        try Array(bytes).withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSONValue in
            var reader = Reader(bytes: buffer)
            let value = try reader.value(depth: 0)
            reader.skipWhitespace()
            guard reader.atEnd else { throw JSONParseError.syntax.at(reader.index) }
            return value
        }
    }
}

extension JSONValue {
    /// The JSON value of `bytes`, read by `JSONParser`.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        self = try JSONParser.parse(bytes)
    }
}

/// The cursor over the bytes; every method leaves `index` just past what it read.
private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Array items and object members read so far.
    private(set) var elements = 0

    var atEnd: Bool { index == bytes.count }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    /// A value nested inside `depth` containers.
    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        switch current {
        case UInt8(ascii: "{")?: return .object(try object(depth: depth + 1))
        case UInt8(ascii: "[")?: return .array(try array(depth: depth + 1))
        case UInt8(ascii: "\"")?: return .string(try string())
        case UInt8(ascii: "t")?: return try literal("true", .bool(true))
        case UInt8(ascii: "f")?: return try literal("false", .bool(false))
        case UInt8(ascii: "n")?: return try literal("null", .null)
        case let byte? where byte == UInt8(ascii: "-") || Self.isDigit(byte): return try number()
        default: throw JSONParseError.syntax.at(index)
        }
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> [String: JSONValue] {
        guard depth <= JSONParser.defaultMaximumDepth else { throw JSONParseError.tooDeep.at(index) }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return members
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw JSONParseError.syntax.at(index) }
            let nameStart = index
            let name = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            try countElement()
            let member = try value(depth: depth)
            guard members.updateValue(member, forKey: name) == nil else {
                throw JSONParseError.duplicateName.at(nameStart)
            }
            skipWhitespace()
            if try endOfContainer(closedBy: UInt8(ascii: "}")) { return members }
        }
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> [JSONValue] {
        guard depth <= JSONParser.defaultMaximumDepth else { throw JSONParseError.tooDeep.at(index) }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return items
        }
        while true {
            try countElement()
            items.append(try value(depth: depth))
            skipWhitespace()
            if try endOfContainer(closedBy: UInt8(ascii: "]")) { return items }
        }
    }

    private mutating func countElement() throws(JSONParseError) {
        elements += 1
        guard elements <= JSONParser.defaultMaximumElements else { throw JSONParseError.tooManyElements.at(index) }
    }

    /// After a member or item: true at the closing bracket, false at a comma, a syntax error otherwise.
    private mutating func endOfContainer(closedBy closing: UInt8) throws(JSONParseError) -> Bool {
        switch current {
        case closing?:
            index += 1
            return true
        case UInt8(ascii: ",")?:
            index += 1
            return false
        default:
            throw JSONParseError.syntax.at(index)
        }
    }

    private mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        guard current == byte else { throw JSONParseError.syntax.at(index) }
        index += 1
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count,
            (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
        else {
            throw JSONParseError.syntax.at(index)
        }
        index += count
        return value
    }

    /// A string, starting at its opening quote. Runs without escapes are copied whole.
    private mutating func string() throws(JSONParseError) -> String {
        index += 1
        var text: [UInt8] = []
        var runStart = index
        while true {
            guard let byte = current else { throw JSONParseError.syntax.at(index) }
            switch byte {
            case UInt8(ascii: "\""):
                text.append(contentsOf: bytes[runStart..<index])
                index += 1
                guard let string = String(validating: text, as: UTF8.self) else {
                    throw JSONParseError.invalidText.at(runStart)
                }
                return string
            case UInt8(ascii: "\\"):
                text.append(contentsOf: bytes[runStart..<index])
                try escape(into: &text)
                runStart = index
            case 0: throw JSONParseError.nulCharacter.at(index)
            case ..<0x20: throw JSONParseError.syntax.at(index)
            default: index += 1
            }
        }
    }

    /// One escape sequence, starting at its backslash, appended as UTF-8.
    private mutating func escape(into text: inout [UInt8]) throws(JSONParseError) {
        let start = index
        index += 1
        guard let letter = current else { throw JSONParseError.syntax.at(start) }
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(letter)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"): text.append(contentsOf: Array(String(try unicodeScalar(from: start)).utf8))
        default: throw JSONParseError.syntax.at(start)
        }
    }

    /// The scalar of a `\uXXXX` escape whose `u` was just read, reading a second escape for a surrogate pair.
    private mutating func unicodeScalar(from start: Int) throws(JSONParseError) -> Unicode.Scalar {
        let unit = try hexUnit()
        if (0xD800..<0xDC00).contains(unit) {
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw JSONParseError.invalidText.at(start)
            }
            index += 2
            let low = try hexUnit()
            guard (0xDC00..<0xE000).contains(low) else { throw JSONParseError.invalidText.at(start) }
            let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw JSONParseError.invalidText.at(start) }
            return scalar
        }
        guard unit != 0 else { throw JSONParseError.nulCharacter.at(start) }
        guard let scalar = Unicode.Scalar(unit) else { throw JSONParseError.invalidText.at(start) }
        return scalar
    }

    private mutating func hexUnit() throws(JSONParseError) -> UInt16 {
        guard bytes.count - index >= 4 else { throw JSONParseError.syntax.at(index) }
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexValue(bytes[index]) else { throw JSONParseError.syntax.at(index) }
            unit = unit << 4 | UInt16(digit)
            index += 1
        }
        return unit
    }

    /// A number as RFC 8259 writes it: `.integer` when its value is whole and fits in 64 bits, else `.number`.
    private mutating func number() throws(JSONParseError) -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            try digits()
        }
        var isWhole = true
        if current == UInt8(ascii: ".") {
            index += 1
            isWhole = false
            try digits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            isWhole = false
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isWhole, let whole = Int64(text) { return .integer(whole) }
        guard let value = Double(text), value.isFinite else { throw JSONParseError.numberOutOfRange.at(start) }
        if let whole = Int64(exactly: value) { return .integer(whole) }
        return .number(value)
    }

    /// One or more decimal digits.
    private mutating func digits() throws(JSONParseError) {
        guard let first = current, Self.isDigit(first) else { throw JSONParseError.syntax.at(index) }
        while let byte = current, Self.isDigit(byte) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
