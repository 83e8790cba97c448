import NIOCore
import StrictJSON

/// Checks on a JSON body's text that Foundation's decoder does not make, for the bodies it decodes: one pass over the
/// bytes, tracking only whether it is inside a string, how deep it is, and how many items and members it may hold.
enum JSONText {
    /// Throws 400 when a string holds U+0000 (written `\u0000`, or raw), which PostgreSQL cannot store in text and no
    /// field has a use for; when arrays and objects nest deeper than `JSONParser.defaultMaximumDepth`, as no body
    /// does, and as would make decoding a `JSONValue` member slow; or when they may hold more than
    /// `JSONParser.defaultMaximumElements` items and members, whose values the decoder would hold at once. Items are
    /// counted by their commas and containers, so a body of empty containers meets the bound early.
    static func check(_ body: ByteBuffer) throws {
        let problem = body.withUnsafeReadableBytes { bytes -> JSONParseError? in
            var inString = false
            var depth = 0
            var elements = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        if index + 5 < bytes.count, bytes[index + 1] == UInt8(ascii: "u"),
                            bytes[(index + 2)...(index + 5)].allSatisfy({ $0 == UInt8(ascii: "0") })
                        {
                            return .nulCharacter
                        }
                        index += 2
                        continue
                    }
                    if byte == UInt8(ascii: "\"") { inString = false }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "["), UInt8(ascii: "{"):
                        depth += 1
                        elements += 1
                        if depth > JSONParser.defaultMaximumDepth { return .tooDeep }
                        if elements > JSONParser.defaultMaximumElements { return .tooManyElements }
                    case UInt8(ascii: ","):
                        elements += 1
                        if elements > JSONParser.defaultMaximumElements { return .tooManyElements }
                    case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                    default: break
                    }
                }
                if byte == 0 { return .nulCharacter }
                index += 1
            }
            return nil
        }
        if let problem { throw HaleError.invalidRequest(problem.message) }
    }
}
