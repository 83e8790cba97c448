import Testing

@testable import HaleServer

/// The DATA phase encoding.
@Suite("DATA dot-stuffing")
struct SMTPDotStuffingTests {
    private func stuffed(_ text: String) -> String {
        String(decoding: SMTPDotStuffing.encode(Array(text.utf8)), as: UTF8.self)
    }

    @Test func doublesLeadingDotsAndTerminates() {
        #expect(stuffed(".a\r\nb.\r\n..c\r\n") == "..a\r\nb.\r\n...c\r\n.\r\n")
    }

    @Test func loneDotLineCannotEndTheMessageEarly() {
        #expect(stuffed("x\r\n.\r\ny") == "x\r\n..\r\ny\r\n.\r\n")
    }

    @Test func normalizesBareLineBreaks() {
        #expect(stuffed("a\nb\rc") == "a\r\nb\r\nc\r\n.\r\n")
    }

    @Test func emptyMessage() {
        #expect(stuffed("") == "\r\n.\r\n")
    }
}
