/// Reads one tag's name and attributes from the bytes between `<` and `>`.
enum ExportTagParser {
    /// The element; of its attributes, only those named in `keeping` when it is given, though all are checked.
    static func element(from bytes: ArraySlice<UInt8>, at offset: Int64, keeping: [String]? = nil) throws
        -> ExportElement
    {
        var cursor = bytes.startIndex
        let end = bytes.endIndex
        func fail(_ what: String) -> ExportError {
            ExportError("The tag at byte \(offset) is not well-formed: \(what).")
        }
        if cursor < end, bytes[cursor] == UInt8(ascii: "/") {
            let name = String(decoding: bytes[(cursor + 1)...].filter { !isSpace($0) }, as: UTF8.self)
            guard !name.isEmpty else { throw fail("an end tag without a name") }
            return ExportElement(name: name, kind: .end)
        }
        var selfClosing = false
        var last = end
        while last > cursor, isSpace(bytes[last - 1]) { last -= 1 }
        if last > cursor, bytes[last - 1] == UInt8(ascii: "/") {
            selfClosing = true
            last -= 1
        }
        let nameStart = cursor
        while cursor < last, !isSpace(bytes[cursor]) { cursor += 1 }
        guard cursor > nameStart else { throw fail("a tag without a name") }
        let name = String(decoding: bytes[nameStart..<cursor], as: UTF8.self)
        var attributes: ExportAttributes = [:]
        while true {
            while cursor < last, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < last else { break }
            let keyStart = cursor
            while cursor < last, bytes[cursor] != UInt8(ascii: "="), !isSpace(bytes[cursor]) { cursor += 1 }
            let keyBytes = bytes[keyStart..<cursor]
            let kept = keeping.map { names in names.contains { $0.utf8.elementsEqual(keyBytes) } } ?? true
            var key: String { String(decoding: keyBytes, as: UTF8.self) }
            while cursor < last, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < last, bytes[cursor] == UInt8(ascii: "=") else { throw fail("attribute \(key) has no value") }
            cursor += 1
            while cursor < last, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < last, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") else {
                throw fail("attribute \(key)'s value is not quoted")
            }
            let quote = bytes[cursor]
            cursor += 1
            let valueStart = cursor
            while cursor < last, bytes[cursor] != quote { cursor += 1 }
            guard cursor < last else { throw fail("attribute \(key)'s value is not closed") }
            if kept {
                attributes.append(key, try decode(bytes[valueStart..<cursor], fail: fail))
            } else if bytes[valueStart..<cursor].contains(UInt8(ascii: "&")) {
                _ = try decode(bytes[valueStart..<cursor], fail: fail)
            }
            cursor += 1
        }
        return ExportElement(name: name, attributes: attributes, kind: .start(selfClosing: selfClosing))
    }

    /// Decodes `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and character references; any other entity is an error,
    /// so no entity is ever expanded.
    static func decode(_ bytes: ArraySlice<UInt8>, fail: (String) -> ExportError) throws -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var cursor = bytes.startIndex
        while cursor < bytes.endIndex {
            let byte = bytes[cursor]
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                cursor += 1
                continue
            }
            guard let semicolon = bytes[cursor...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
                throw fail("a bare & in an attribute value")
            }
            let name = String(decoding: bytes[(cursor + 1)..<semicolon], as: UTF8.self)
            output += Array(try character(named: name, fail: fail).utf8)
            cursor = semicolon + 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func character(named name: String, fail: (String) -> ExportError) throws -> String {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let number: UInt32?
            if name.hasPrefix("#x") {
                number = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                number = UInt32(name.dropFirst())
            } else {
                throw fail("the entity &\(name.prefix(32)); is not one of XML's own (entities are never expanded)")
            }
            guard let number, let scalar = Unicode.Scalar(number) else { throw fail("a bad character reference") }
            return String(Character(scalar))
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
