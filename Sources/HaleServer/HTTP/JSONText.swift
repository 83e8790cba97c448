import NIOCore

/// Checks on a JSON body's text that no decoder makes.
enum JSONText {
    /// Throws 400 when a string in the body holds U+0000, written `\u0000`: PostgreSQL cannot store it in text, and
    /// no field Hale takes has a use for it. One pass over the bytes, tracking only whether it is inside a string.
    static func requireNoNULCharacter(in body: ByteBuffer) throws {
        let found = body.withUnsafeReadableBytes { bytes in
            var inString = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if inString, byte == UInt8(ascii: "\\") {
                    if index + 5 < bytes.count, bytes[index + 1] == UInt8(ascii: "u"),
                        bytes[(index + 2)...(index + 5)].allSatisfy({ $0 == UInt8(ascii: "0") })
                    {
                        return true
                    }
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString.toggle() }
                if byte == 0 { return true }
                index += 1
            }
            return false
        }
        if found { throw HaleError.invalidRequest("Strings must not contain the NUL character (U+0000).") }
    }
}
