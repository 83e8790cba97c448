import Foundation
import Testing

@testable import WebAuthn

@Suite("clientDataJSON parsing")
struct ClientDataParserTests {
    private func parse(_ json: String) throws(WebAuthnError) -> CollectedClientData {
        try CollectedClientData(bytes: Array(json.utf8))
    }

    private func refuses(_ json: String, _ comment: Comment? = nil) {
        #expect(throws: WebAuthnError.self, comment) { try parse(json) }
    }

    @Test("what Chrome sends, extra members and all")
    func chrome() throws {
        let data = try parse(
            #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://example.com","crossOrigin":false,"#
                + #""other_keys_can_be_added_here":"do not compare clientDataJSON against a template. See https://goo.gl/yabPex"}"#
        )
        #expect(data.type == "webauthn.get")
        #expect(data.challenge == "AAEC")
        #expect(data.origin == "https://example.com")
        #expect(data.crossOrigin == false)
        #expect(data.topOrigin == nil)
    }

    @Test("what Android sends, with its package name")
    func android() throws {
        let data = try parse(
            #"{"type":"webauthn.create","challenge":"AAEC","origin":"android:apk-key-hash:abc","androidPackageName":"com.example"}"#
        )
        #expect(data.origin == "android:apk-key-hash:abc")
    }

    @Test("whitespace, nested extra members, numbers and literals are skipped")
    func extraMembers() throws {
        let data = try parse(
            """
             {
              "tokenBinding": {"status": "present", "id": "x", "deep": [1, -2.5e+3, 0, true, false, null, {}, []]},
              "type" : "webauthn.get", "challenge":"AAEC", "origin":"https://example.com", "n": -0.0E1
            }\t
            """)
        #expect(data.type == "webauthn.get")
    }

    @Test("escapes decode as JSON says, surrogate pairs included")
    func escapes() throws {
        let data = try parse(
            #"{"type":"webauthn.get","challenge":"AAEC","origin":"https:\/\/ex\u0061mple.com","x":"\ud83d\ude00\"\\\b\f\n\r\t"}"#
        )
        #expect(data.origin == "https://example.com")
        let emoji = try parse(#"{"type":"webauthn.get","challenge":"AAEC","origin":"\ud83d\ude00"}"#)
        #expect(emoji.origin == "😀")
    }

    @Test("it reads what Foundation's JSONDecoder reads")
    func agreesWithFoundation() throws {
        struct Reference: Decodable, Equatable {
            let type: String
            let challenge: String
            let origin: String
            let crossOrigin: Bool?
            let topOrigin: String?
        }
        let documents = [
            #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://a.example","crossOrigin":true,"topOrigin":"https://b.example"}"#,
            #"{"origin":"h\u00e9llo","challenge":"-_","type":"t","x":[[[]]]}"#,
            #"{"type":"\u00e9\u4e2d","challenge":"","origin":"é"}"#,
        ]
        for document in documents {
            let reference = try JSONDecoder().decode(Reference.self, from: Data(document.utf8))
            let parsed = try parse(document)
            #expect(
                Reference(
                    type: parsed.type, challenge: parsed.challenge, origin: parsed.origin,
                    crossOrigin: parsed.crossOrigin, topOrigin: parsed.topOrigin) == reference)
        }
    }

    @Test("a member Hale reads may not repeat, so no two readers can disagree")
    func duplicates() {
        refuses(
            #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://a.example","origin":"https://b.example"}"#)
        refuses(#"{"type":"webauthn.create","type":"webauthn.get","challenge":"AAEC","origin":"o"}"#)
        refuses(#"{"type":"t","challenge":"AAEC","origin":"o","crossOrigin":false,"crossOrigin":true}"#)
    }

    @Test("the members Hale reads must be present and of their type")
    func requiredAndTyped() {
        refuses(#"{"challenge":"AAEC","origin":"o"}"#, "no type")
        refuses(#"{"type":"t","origin":"o"}"#, "no challenge")
        refuses(#"{"type":"t","challenge":"AAEC"}"#, "no origin")
        refuses(#"{"type":1,"challenge":"AAEC","origin":"o"}"#, "numeric type")
        refuses(#"{"type":"t","challenge":"AAEC","origin":"o","crossOrigin":"false"}"#, "string crossOrigin")
        refuses(#"{"type":"t","challenge":"AAEC","origin":null}"#, "null origin")
        refuses(#"{"type":"t","challenge":"AAEC","origin":"o","topOrigin":7}"#, "numeric topOrigin")
    }

    private static let valid = #"{"type":"t","challenge":"AAEC","origin":"o""#

    @Test(
        "a malformed extra member is refused",
        arguments: [
            "", "01", "1.", "-", ".5", "1e", "+1", "tru", "nul", "[1,]", "[1 2]", "[", "{", #"{"a" 1}"#, #"{"a":1,}"#,
            "{a:1}", "'a'", #""\x""#, #""\u12""#, #""\ud800""#, #""\udc00\ud800""#, #""\ud800\u0041""#,
            #""unterminated"#, "\"tab\there\"",
        ])
    func malformedMember(value: String) throws {
        _ = try parse(Self.valid + #","x":1}"#)
        refuses(Self.valid + #","x":"# + value + "}")
    }

    @Test(
        "a malformed document is refused",
        arguments: [
            "", "{", "[]", #""x""#, valid + "}x", valid + ",}", valid + "}}", "{," + valid.dropFirst() + "}",
            valid.replacingOccurrences(of: ":", with: " ") + "}",
        ])
    func malformedDocument(json: String) {
        refuses(json)
    }

    @Test("control characters inside a string are refused")
    func controlCharacter() {
        refuses("{\"type\":\"t\u{01}\",\"challenge\":\"AAEC\",\"origin\":\"o\"}")
    }

    @Test("invalid UTF-8 is refused")
    func invalidUTF8() {
        var bytes = Array(#"{"type":"t","challenge":"AAEC","origin":"o"}"#.utf8)
        bytes.insert(0xFF, at: 10)
        #expect(throws: WebAuthnError.self) { try CollectedClientData(bytes: bytes) }
    }

    @Test("nesting deeper than the limit is refused, not recursed into")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        refuses(#"{"type":"t","challenge":"AAEC","origin":"o","x":"# + deep + "}")
        let shallow = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        #expect(throws: Never.self) { try parse(#"{"type":"t","challenge":"AAEC","origin":"o","x":"# + shallow + "}") }
    }

    @Test("nesting exactly as deep as the limit is read; one level more is refused")
    func nestingAtTheLimit() {
        func nested(_ depth: Int) -> String {
            #"{"type":"t","challenge":"AAEC","origin":"o","x":"#
                + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        }
        #expect(throws: Never.self) { try parse(nested(16)) }
        refuses(nested(17))
    }

    @Test("null is refused for every member Hale reads")
    func nullMembers() throws {
        for member in ["type", "challenge", "origin", "crossOrigin", "topOrigin"] {
            var members = ["type": #""t""#, "challenge": #""AAEC""#, "origin": #""o""#]
            members[member] = "null"
            refuses("{" + members.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",") + "}", "\(member)")
        }
    }

    @Test("an escape cut off by the end of the document is refused")
    func escapeAtTheEnd() {
        for tail in [#"\u00"#, #"\u"#, #"\"#, #"\ud800\u00"#] {
            refuses(#"{"type":"t","challenge":"AAEC","origin":"o","x":""# + tail)
        }
    }

    @Test("a frame is refused when its top origin is another; its own origin as top origin is not a frame")
    func topOrigin() throws {
        func verify(_ json: String) throws(WebAuthnError) {
            try parse(json).verify(type: "webauthn.get", challenge: [0, 1, 2], origins: ["https://a.example"])
        }
        let base = #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://a.example""#
        try verify(base + #","topOrigin":"https://a.example"}"#)
        try verify(base + #","crossOrigin":false}"#)
        let error = #expect(throws: WebAuthnError(.crossOriginNotAllowed, "")) {
            try verify(base + #","crossOrigin":false,"topOrigin":"https://b.example"}"#)
        }
        #expect(error?.message == "ceremonies in cross-origin frames are not allowed")
    }

    @Test("a challenge that is a prefix of the one issued is not it")
    func challengePrefix() {
        let json = #"{"type":"webauthn.get","challenge":"AAE","origin":"https://a.example"}"#
        let error = #expect(throws: WebAuthnError(.challengeMismatch, "")) {
            try parse(json).verify(type: "webauthn.get", challenge: [0, 1, 2], origins: ["https://a.example"])
        }
        #expect(error?.message == "the challenge is not the one issued")
    }
}
