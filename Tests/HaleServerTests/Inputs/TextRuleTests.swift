import Testing

@testable import HaleServer

/// The one rule behind every bounded text: lengths in Unicode scalars or bytes, never grapheme clusters.
@Suite("TextRule")
struct TextRuleTests {
    @Test func aNameCountsUnicodeScalarsNotGraphemeClusters() {
        #expect(TextRule.name.allows(String(repeating: "x", count: 100)))
        #expect(TextRule.name.violation(of: String(repeating: "x", count: 101)) == .length)
        // 100 emoji are 400 bytes: the longest a name can be.
        #expect(TextRule.name.allows(String(repeating: "😀", count: 100)))
        // One grapheme cluster of 1,001 scalars: "one character" to Swift's count, too long here.
        let stacked = "e" + String(repeating: "\u{301}", count: 1000)
        #expect(stacked.count == 1)
        #expect(TextRule.name.violation(of: stacked) == .length)
    }

    @Test func aNameIsNeitherEmptyNorOnlySpacesNorControlCharacters() {
        #expect(TextRule.name.violation(of: "") == .length)
        #expect(TextRule.name.violation(of: " \u{3000}\u{FEFF} ") == .characters)
        #expect(TextRule.name.violation(of: "Ana\u{1}") == .characters)
        #expect(TextRule.name.violation(of: "Ana\u{7F}") == .characters)
        #expect(TextRule.name.violation(of: "Ana\n") == .characters)
        #expect(TextRule.name.allows("Ana’s iPhone\u{85}"))
    }

    @Test func aTextFarOverItsByteBoundIsRefusedUnread() {
        #expect(TextRule.name.violation(of: String(repeating: "x", count: 2_000_000)) == .length)
    }

    @Test func pushTokensAreFCMCharacters() {
        #expect(TextRule.pushToken.allows("dXg3:APA91bH-x_Y0"))
        #expect(TextRule.pushToken.violation(of: "a b") == .characters)
        #expect(TextRule.pushToken.violation(of: "a\u{7F}") == .characters)
        #expect(TextRule.pushToken.violation(of: "tökén") == .characters)
        #expect(TextRule.pushToken.allows(String(repeating: "a", count: 512)))
        #expect(TextRule.pushToken.violation(of: String(repeating: "a", count: 513)) == .length)
    }

    @Test func byteRulesCountBytes() {
        let rule = TextRule(0...4, .bytes, .noControl)
        #expect(rule.allows(""))
        #expect(rule.allows("😀"))
        #expect(rule.violation(of: "é😀") == .length)
        #expect(rule.violation(of: "a\u{0}") == .characters)
    }

    @Test func theMessageNamesTheFieldAndTheWholeRule() {
        #expect(
            TextRule.name.message(field: "deviceName")
                == "deviceName must be 1 to 100 characters (Unicode code points), not only spaces, and no control characters."
        )
        #expect(
            TextRule.pushToken.message(field: "fcmToken")
                == "fcmToken must be 1 to 512 characters of A-Z, a-z, 0-9, ':', '_' and '-'.")
        #expect(
            TextRule(0...255, .bytes, .noControl).message(field: "sourceBundle")
                == "sourceBundle must be at most 255 bytes with no control characters.")
        #expect(
            HaleServer.PasskeyDevice.osVersionRule.message(field: "osVersion")
                == "osVersion must be 1 to 64 printable ASCII characters.")
    }

    @Test func checkTrimmedKeepsTheNameWithoutSurroundingSpace() throws {
        #expect(try TextRule.name.checkTrimmed("  Work phone ", field: "name") == "Work phone")
        #expect(throws: InvalidInput("name", .text(.name))) {
            try TextRule.name.checkTrimmed("\u{85}", field: "name")
        }
    }
}
