import NIOCore
import Testing

@testable import HaleServer

/// Reply framing and its limits against hostile input.
@Suite("SMTP reply parser")
struct SMTPReplyParserTests {
    private func replies(_ chunks: String...) throws(SMTPError) -> [SMTPReply] {
        var parser = SMTPReplyParser()
        var replies: [SMTPReply] = []
        for chunk in chunks {
            parser.append(ByteBuffer(string: chunk))
            while let reply = try parser.nextReply() { replies.append(reply) }
        }
        return replies
    }

    private func error(_ chunks: String...) -> SMTPError? {
        var parser = SMTPReplyParser()
        do {
            for chunk in chunks {
                parser.append(ByteBuffer(string: chunk))
                while try parser.nextReply() != nil {}
            }
            return nil
        } catch {
            return error
        }
    }

    @Test func parsesSingleLineReply() throws {
        #expect(
            try replies("220 mail.example.org ESMTP ready\r\n") == [
                SMTPReply(code: 220, lines: ["mail.example.org ESMTP ready"])
            ])
    }

    @Test func parsesMultiLineReplySplitAcrossChunks() throws {
        let parsed = try replies("250-mail.example.org\r\n250-STA", "RTTLS\r\n250-SIZE 1000\r", "\n250 HELP\r\n")
        #expect(parsed == [SMTPReply(code: 250, lines: ["mail.example.org", "STARTTLS", "SIZE 1000", "HELP"])])
    }

    @Test func parsesSeveralRepliesInOneChunkAndCodeOnlyLines() throws {
        #expect(try replies("250 OK\r\n354\r\n").map(\.code) == [250, 354])
    }

    @Test func toleratesBareLineFeed() throws {
        #expect(try replies("221 bye\n") == [SMTPReply(code: 221, lines: ["bye"])])
    }

    @Test func waitsForTheEndOfTheLine() throws {
        #expect(try replies("250 still coming").isEmpty)
    }

    @Test(arguments: ["25 short\r\n", "abc text\r\n", "250_text\r\n", "650 bad class\r\n", "\r\n"])
    func rejectsMalformedLines(_ line: String) {
        #expect(error(line)?.isTransient == true)
    }

    @Test func rejectsCodeChangeWithinReply() {
        #expect(error("250-first\r\n251 second\r\n")?.isTransient == true)
    }

    @Test func rejectsLineLongerThanLimitEvenWithoutNewline() {
        let endless = String(repeating: "9", count: SMTPReplyParser.maximumLineLength)
        #expect(error("250 ", endless)?.reason.contains("longer than") == true)
    }

    @Test func acceptsLineExactlyAtLimit() throws {
        let text = String(repeating: "x", count: SMTPReplyParser.maximumLineLength - 6)
        #expect(try replies("250 \(text)\r\n").first?.lines == [text])
    }

    @Test func rejectsTooManyLines() {
        let lines = String(repeating: "250-x\r\n", count: SMTPReplyParser.maximumLineCount + 1)
        #expect(error(lines + "250 end\r\n")?.reason.contains("more than") == true)
    }

    @Test func reportsBufferedInput() throws {
        var parser = SMTPReplyParser()
        parser.append(ByteBuffer(string: "220 go ahead\r\n250-injected"))
        #expect(try parser.nextReply()?.code == 220)
        #expect(parser.hasBufferedInput)
    }

    @Test func summaryIsPrintableAndBounded() {
        let reply = SMTPReply(code: 550, lines: ["bad\u{7}" + String(repeating: "y", count: 500)])
        #expect(reply.summary.hasPrefix("550 bad?y"))
        #expect(reply.summary.count == 4 + SMTPReply.maximumSummaryLength)
    }
}
