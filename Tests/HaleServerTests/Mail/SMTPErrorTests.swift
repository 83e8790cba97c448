import Testing

@testable import HaleServer

/// Error classification, secret redaction and settings validation.
@Suite("Errors and settings")
struct SMTPErrorTests {
    @Test func classifiesReplies() {
        #expect(SMTPError.unexpected(SMTPReply(code: 451, lines: ["try later"]), to: "RCPT TO").isTransient)
        #expect(!SMTPError.unexpected(SMTPReply(code: 550, lines: ["no such user"]), to: "RCPT TO").isTransient)
        #expect(SMTPError.unexpected(SMTPReply(code: 250, lines: ["ok"]), to: "DATA").isTransient)
        #expect(!SMTPError.authenticationFailed(SMTPReply(code: 535, lines: ["no"])).isTransient)
        #expect(SMTPError.authenticationFailed(SMTPReply(code: 454, lines: ["later"])).isTransient)
    }

    @Test("a 5xx to the message's sender, recipient or content rejects that message; before it, the server")
    func rejectionsOfTheMessage() {
        let refusal = SMTPReply(code: 550, lines: ["no"])
        for command in ["MAIL FROM", "RCPT TO", "DATA", "the message content"] {
            #expect(SMTPError.unexpected(refusal, to: command) == .rejected("server replied 550 no to \(command)"))
        }
        #expect(SMTPError.unexpected(refusal, to: "EHLO") == .permanent("server replied 550 no to EHLO"))
        #expect(SMTPError.authenticationFailed(SMTPReply(code: 535, lines: ["no"])) != .rejected(""))
    }

    @Test func authenticationErrorOmitsServerText() {
        let echoed = SMTPReply(code: 535, lines: ["bad credentials AHVzZXIAaHVudGVyMg=="])
        #expect(!SMTPError.authenticationFailed(echoed).reason.contains("AHVz"))
    }

    @Test func credentialsNeverPrintThePassword() {
        let settings = SMTPSettings(
            host: "mail.example.org", port: 587, security: .startTLS,
            credentials: SMTPCredentials(username: "hale", password: "hunter2"))
        #expect(!"\(settings)".contains("hunter2"))
        #expect(!String(reflecting: settings).contains("hunter2"))
        var dumped = ""
        dump(settings, to: &dumped)
        #expect(!dumped.contains("hunter2"))
    }

    @Test(arguments: ["", "two words", "bad\r\nname"])
    func rejectsUnsafeHeloNames(_ name: String) {
        let settings = SMTPSettings(host: "localhost", port: 587, security: .startTLS, heloName: name)
        #expect(throws: SMTPError.self) { try settings.validate() }
    }

    @Test func missingCAFileIsPermanent() {
        #expect(throws: SMTPError.self) { try SMTPTLS.makeContext(trustedCAFilePath: "/nonexistent/ca.pem") }
    }
}
