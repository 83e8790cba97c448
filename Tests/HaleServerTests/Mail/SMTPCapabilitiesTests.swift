import Testing

@testable import HaleServer

/// EHLO extension parsing and AUTH mechanism choice.
@Suite("EHLO capabilities")
struct SMTPCapabilitiesTests {
    @Test func readsExtensions() {
        let reply = SMTPReply(
            code: 250, lines: ["mx.example.org greets you", "SIZE 1048576", "8BITMIME", "starttls", "AUTH LOGIN PLAIN"])
        let capabilities = SMTPCapabilities(ehloReply: reply)
        #expect(capabilities.supportsStartTLS)
        #expect(capabilities.authMechanisms == ["LOGIN", "PLAIN"])
        #expect(capabilities.supportsSize && capabilities.maximumMessageSize == 1_048_576)
        #expect(capabilities.supports8BitMIME)
    }

    @Test func greetingLineIsNotAnExtensionAndSizeZeroMeansUnlimited() {
        let capabilities = SMTPCapabilities(
            ehloReply: SMTPReply(code: 250, lines: ["STARTTLS", "SIZE 0", "AUTH=LOGIN"]))
        #expect(!capabilities.supportsStartTLS)
        #expect(capabilities.supportsSize && capabilities.maximumMessageSize == nil)
        #expect(capabilities.authMechanisms == ["LOGIN"])
    }

    @Test func prefersPlainOverLogin() {
        #expect(SMTPAuthentication.chooseMechanism(offered: ["LOGIN", "PLAIN"]) == .plain)
        #expect(SMTPAuthentication.chooseMechanism(offered: ["LOGIN", "CRAM-MD5"]) == .login)
        #expect(SMTPAuthentication.chooseMechanism(offered: ["XOAUTH2"]) == nil)
    }
}
