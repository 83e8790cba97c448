import Foundation
import StrictJSON
import Testing

@testable import StrictJSON

@Suite("Strict JSON: what is read, and how")
struct JSONParserTests {
    static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    @Test(
        "values of every kind",
        arguments: [
            ("null", JSONValue.null), ("true", .bool(true)), (" false ", .bool(false)), ("0", .integer(0)),
            ("-0", .integer(0)), ("12", .integer(12)), ("8500.0", .integer(8_500)), ("1.2e1", .integer(12)),
            ("1E2", .integer(100)), ("-9223372036854775808", .integer(.min)),
            ("9223372036854775808", .number(9_223_372_036_854_775_808)), ("1e19", .number(1e19)),
            ("0.5", .number(0.5)), ("-1e-7", .number(-1e-7)), ("5e-324", .number(.leastNonzeroMagnitude)),
            ("1e308", .number(1e308)), (#""""#, .string("")), (#""a\"b\\c\/d""#, .string(#"a"b\c/d"#)),
            (#""\b\f\n\r\t""#, .string("\u{8}\u{C}\n\r\t")), (#""\u00e9\u20AC""#, .string("é€")),
            (#""\ud83d\ude00""#, .string("😀")), ("\"é😀\"", .string("é😀")), ("[]", .array([])),
            ("{}", .object([:])), (#"[1, "a", [null]]"#, .array([.integer(1), .string("a"), .array([.null])])),
            (
                #"{"a": {"b": [true]}, "c": 1.5}"#,
                .object(["a": .object(["b": .array([.bool(true)])]), "c": .number(1.5)])
            ),
        ] as [(String, JSONValue)])
    func values(text: String, value: JSONValue) throws {
        #expect(try Self.parse(text) == value)
    }

    @Test(
        "JSON_SYNTAX: not JSON, and where reading stopped",
        arguments: [
            ("", 0), (" ", 1), ("nul", 0), ("True", 0), ("[1,]", 3), ("[1 2]", 3), ("{\"a\" 1}", 5),
            ("{\"a\":1,}", 7), ("{a:1}", 1), ("'a'", 0), ("01", 1), ("1.", 2), (".5", 0), ("-", 1), ("1e", 2),
            ("+1", 0), ("NaN", 0), ("Infinity", 0), ("-Infinity", 1), ("[1]]", 3), ("{} {}", 3), ("\"abc", 4),
            ("\"\\x\"", 1), ("\"\\u12\"", 3), ("\"\\u12G4\"", 5), ("\"a\tb\"", 2), ("\"a\nb\"", 2), ("[", 1),
            ("{\"a\":", 5), ("0x10", 1), ("1_000", 1), ("{\"a\":1 \"b\":2}", 7), ("{\"a\":1,1:2}", 7),
            ("[tru]", 1), ("[nulll]", 5), ("\"\\u0041", 7), ("\"\\ud83d\\u", 9),
        ] as [(String, Int)])
    func syntax(text: String, offset: Int) {
        #expect(Self.failure(text) == "JSON_SYNTAX at \(offset)")
    }

    /// The code and offset of the error `text` is refused with (`JSON_SYNTAX at 3`); `read` when it is read.
    static func failure(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "read"
        } catch {
            return "\(error.code) at \(error.offset)"
        }
    }

    @Test("JSON_TOO_DEEP: 32 levels are read, 33 are not, for arrays and objects alike")
    func depth() throws {
        let deepest = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(try Self.parse(deepest) != .null)
        #expect(throws: JSONParseError.tooDeep) {
            try Self.parse(String(repeating: "[", count: 33) + String(repeating: "]", count: 33))
        }
        #expect(throws: JSONParseError.tooDeep) {
            try Self.parse(String(repeating: #"{"a":"#, count: 33) + "1" + String(repeating: "}", count: 33))
        }
        let deepestObject = String(repeating: #"{"a":"#, count: 32) + "1" + String(repeating: "}", count: 32)
        #expect(try Self.parse(deepestObject) != .null)
        // Never more than 33 frames deep, whatever the input: a hundred thousand brackets are one error.
        #expect(throws: JSONParseError.tooDeep) { try Self.parse(String(repeating: "[", count: 100_000)) }
    }

    @Test("JSON_TOO_MANY_ELEMENTS: 500,000 items and members in all are read, one more is not")
    func elementCount() throws {
        let most = JSONParser.defaultMaximumElements
        let items = "[" + Array(repeating: "0", count: most).joined(separator: ",") + "]"
        guard case .array(let read) = try Self.parse(items) else {
            Issue.record("not an array")
            return
        }
        #expect(read.count == most)
        #expect(throws: JSONParseError.tooManyElements) {
            _ = try Self.parse("[" + Array(repeating: "0", count: most + 1).joined(separator: ",") + "]")
        }
        // Items and members count together: each object here is an item holding a member.
        let objects = Array(repeating: #"{"a":0}"#, count: most / 2 + 1).joined(separator: ",")
        #expect(throws: JSONParseError.tooManyElements) { _ = try Self.parse("[" + objects + "]") }
        #expect(JSONParseError.tooManyElements.code == "JSON_TOO_MANY_ELEMENTS")
    }

    @Test("JSON_DUPLICATE_NAME: an object naming a member twice, however it is escaped")
    func duplicateNames() {
        #expect(throws: JSONParseError.duplicateName) { try Self.parse(#"{"a":1,"a":2}"#) }
        #expect(throws: JSONParseError.duplicateName) { try Self.parse(#"{"a":1,"\u0061":1}"#) }
    }

    @Test("JSON_NUL_CHARACTER: escaped or raw")
    func nul() {
        #expect(throws: JSONParseError.nulCharacter) { try Self.parse(#""a\u0000b""#) }
        #expect(throws: JSONParseError.nulCharacter) { try JSONParser.parse([0x22, 0x61, 0x00, 0x22]) }
        #expect(throws: JSONParseError.nulCharacter) { try Self.parse(#"{"\u0000":1}"#) }
    }

    @Test(
        "JSON_NUMBER_OUT_OF_RANGE: beyond a Double", arguments: ["1e400", "-1e309", String(repeating: "9", count: 400)])
    func numbers(text: String) {
        #expect(throws: JSONParseError.numberOutOfRange) { try Self.parse(text) }
    }

    @Test("JSON_INVALID_TEXT: unpaired surrogates and bytes that are not UTF-8")
    func invalidText() {
        for text in [
            #""\ud83d""#, #""\ude00""#, #""\ud83dx""#, #""\ud83d\u0041""#, #""\ud83d"#, #""\ud83d\"#,
            #""\ud83d\xdc00""#, #""\ud83dxudc00""#,
        ] {
            #expect(Self.failure(text) == "JSON_INVALID_TEXT at 1", "\(text)")
        }
        #expect(throws: JSONParseError.invalidText) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
        #expect(throws: JSONParseError.invalidText) { try JSONParser.parse([0x22, 0xC3, 0x22]) }
    }

    @Test("an error says where reading stopped, and its message never quotes the input")
    func errorDetails() {
        do {
            _ = try Self.parse(#"{"secret-token": 1, "secret-token": 2}"#)
            Issue.record("a duplicate name was read")
        } catch {
            #expect(error.code == "JSON_DUPLICATE_NAME")
            #expect(error.offset == 20)
            #expect(!error.description.contains("secret"))
        }
    }

    @Test("a megabyte of shallow arrays is read in one pass")
    func wideInput() throws {
        // 32,768 items of 15 nested arrays: 491,520 items in all, under the bound of 500,000.
        let item = String(repeating: "[", count: 15) + String(repeating: "]", count: 15)
        let text = "[" + Array(repeating: item, count: 32_768).joined(separator: ",") + "]"
        guard case .array(let items) = try Self.parse(text) else {
            Issue.record("not an array")
            return
        }
        #expect(items.count == 32_768)
    }

    @Test("Decodable, for a member of a larger body, keeps the kinds apart")
    func decodable() throws {
        struct Body: Decodable { let payload: JSONValue }
        let body = try JSONDecoder().decode(
            Body.self, from: Data(#"{"payload": {"n": 3, "x": 2.5, "b": false, "s": "t", "a": [null]}}"#.utf8))
        #expect(
            body.payload
                == .object([
                    "n": .integer(3), "x": .number(2.5), "b": .bool(false), "s": .string("t"), "a": .array([.null]),
                ]))
    }
}
