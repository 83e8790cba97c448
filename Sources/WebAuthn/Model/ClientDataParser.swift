/// A strict JSON reader for `clientDataJSON`, which must be an object. It decodes the string members WebAuthn uses
/// and checks, without keeping, every other member: they must be well-formed JSON, as the spec lets clients add
/// members. A member Hale reads may appear once only, so no two readers of the same bytes can disagree about it.
///
/// It exists because Foundation's `JSONDecoder` cost more than a third of a whole assertion verification.
struct ClientDataParser {
    /// The members Hale reads, as they appeared.
    struct Members {
        var type: String?
        var challenge: String?
        var origin: String?
        var crossOrigin: Bool?
        var topOrigin: String?
    }

    /// Malformed JSON, a duplicated or mistyped member, or nesting deeper than `maximumDepth`.
    struct Malformed: Error {}

    private static let maximumDepth = 16

    private let bytes: [UInt8]
    private var index = 0

    /// Parses `bytes`, which must hold one JSON object and nothing else but whitespace.
    static func members(of bytes: [UInt8]) throws(Malformed) -> Members {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw Malformed() }
        var parser = ClientDataParser(bytes: bytes)
        parser.skipWhitespace()
        let members = try parser.topLevelObject()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw Malformed() }
        return members
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func topLevelObject() throws(Malformed) -> Members {
        var members = Members()
        try object { (parser, key) throws(Malformed) in
            switch key {
            case "type": try parser.once(&members.type) { (parser) throws(Malformed) in try parser.string() }
            case "challenge": try parser.once(&members.challenge) { (parser) throws(Malformed) in try parser.string() }
            case "origin": try parser.once(&members.origin) { (parser) throws(Malformed) in try parser.string() }
            case "crossOrigin":
                try parser.once(&members.crossOrigin) { (parser) throws(Malformed) in try parser.boolean() }
            case "topOrigin": try parser.once(&members.topOrigin) { (parser) throws(Malformed) in try parser.string() }
            default: try parser.skipValue(depth: 1)
            }
        }
        return members
    }

    /// Reads a member's value into `slot`, which must still be empty. `null` is refused by every reader: no client
    /// sends it.
    private mutating func once<Value>(
        _ slot: inout Value?, _ read: (inout ClientDataParser) throws(Malformed) -> Value
    ) throws(Malformed) {
        guard slot == nil else { throw Malformed() }
        slot = try read(&self)
    }

    private mutating func object(
        _ member: (inout ClientDataParser, String) throws(Malformed) -> Void
    ) throws(Malformed) {
        try expect(UInt8(ascii: "{"))
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            try member(&self, key)
            skipWhitespace()
            if try endOfContainer(UInt8(ascii: "}")) { return }
        }
    }

    /// Consumes `,` and returns false, or consumes `closing` and returns true.
    private mutating func endOfContainer(_ closing: UInt8) throws(Malformed) -> Bool {
        switch peek() {
        case UInt8(ascii: ","):
            index += 1
            return false
        case closing:
            index += 1
            return true
        default:
            throw Malformed()
        }
    }

    private mutating func skipValue(depth: Int) throws(Malformed) {
        guard depth <= Self.maximumDepth else { throw Malformed() }
        switch peek() {
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "{"): try object { (parser, _) throws(Malformed) in try parser.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["): try skipArray(depth: depth)
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try boolean()
        case UInt8(ascii: "n"): guard try literal("null") else { throw Malformed() }
        default: try skipNumber()
        }
    }

    private mutating func skipArray(depth: Int) throws(Malformed) {
        try expect(UInt8(ascii: "["))
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            try skipValue(depth: depth + 1)
            skipWhitespace()
            if try endOfContainer(UInt8(ascii: "]")) { return }
        }
    }

    private mutating func boolean() throws(Malformed) -> Bool {
        if try literal("true") { return true }
        if try literal("false") { return false }
        throw Malformed()
    }

    /// Consumes `word` if it comes next.
    private mutating func literal(_ word: StaticString) throws(Malformed) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = word.withUTF8Buffer { expected in bytes[index..<index + count].elementsEqual(expected) }
        if matches { index += count }
        return matches
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    private mutating func skipNumber() throws(Malformed) {
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            try digits()
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            try digits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
    }

    private mutating func digits() throws(Malformed) {
        let start = index
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        guard index > start else { throw Malformed() }
    }

    private mutating func string() throws(Malformed) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        while let byte = peek(), byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw Malformed() }
            index += 1
        }
        if peek() == UInt8(ascii: "\"") {
            index += 1
            return String(decoding: bytes[start..<index - 1], as: UTF8.self)
        }
        var scalars = String(decoding: bytes[start..<index], as: UTF8.self)
        try escapedRemainder(appendingTo: &scalars)
        return scalars
    }

    /// The rest of a string that contains escapes, up to and including its closing quote.
    private mutating func escapedRemainder(appendingTo text: inout String) throws(Malformed) {
        var utf8: [UInt8] = []
        while let byte = peek() {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                text += String(decoding: utf8, as: UTF8.self)
                return
            case UInt8(ascii: "\\"):
                utf8 += try escape()
            case ..<0x20:
                throw Malformed()
            default:
                utf8.append(byte)
            }
        }
        throw Malformed()
    }

    /// One escape after its backslash, as UTF-8.
    private mutating func escape() throws(Malformed) -> [UInt8] {
        guard let byte = peek() else { throw Malformed() }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return [byte]
        case UInt8(ascii: "b"): return [0x08]
        case UInt8(ascii: "f"): return [0x0C]
        case UInt8(ascii: "n"): return [0x0A]
        case UInt8(ascii: "r"): return [0x0D]
        case UInt8(ascii: "t"): return [0x09]
        case UInt8(ascii: "u"): return Array(String(try unicodeEscape()).utf8)
        default: throw Malformed()
        }
    }

    /// `XXXX` after `\u`, or a surrogate pair `XXXX\uXXXX`; a lone surrogate is malformed.
    private mutating func unicodeEscape() throws(Malformed) -> Character {
        let first = try hexQuad()
        if let scalar = Unicode.Scalar(first) { return Character(scalar) }
        guard (0xD800...0xDBFF).contains(first), try literal("\\u") else { throw Malformed() }
        let second = try hexQuad()
        guard (0xDC00...0xDFFF).contains(second),
            let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        else {
            throw Malformed()
        }
        return Character(scalar)
    }

    private mutating func hexQuad() throws(Malformed) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Malformed() }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Self.hexDigit(byte) else { throw Malformed() }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private mutating func expect(_ byte: UInt8) throws(Malformed) {
        guard peek() == byte else { throw Malformed() }
        index += 1
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }
}
