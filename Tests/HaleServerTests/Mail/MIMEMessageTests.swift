import Foundation
import Testing

@testable import HaleServer

/// Headers, encodings, line lengths and injection rejection of the rendered message.
@Suite("MIME renderer")
struct MIMEMessageTests {
    private static let fixedDate = Date(timeIntervalSince1970: 1_751_360_703)  // 2025-07-01 09:05:03 UTC

    private func mail(
        subject: String = "Hello",
        fromName: String? = "Hale",
        from: String = "noreply@hale.example",
        to: String = "ada@example.org",
        text: String = "Plain body",
        html: String = "<p>HTML body</p>"
    ) -> OutgoingMail {
        OutgoingMail(
            fromAddress: from, fromName: fromName, toAddress: to, subject: subject, textBody: text, htmlBody: html,
            messageID: "1234@hale.example", date: Self.fixedDate)
    }

    private func rendered(_ mail: OutgoingMail, boundary: String = "=_test") throws -> String {
        String(decoding: try MIMEMessage.render(mail, boundary: boundary), as: UTF8.self)
    }

    private func headerBlock(_ message: String) -> String {
        String(message[..<(message.range(of: "\r\n\r\n")?.lowerBound ?? message.endIndex)])
    }

    /// Undoes RFC 2047 B encoding and folding, enough to check what a mail client would show.
    private func decodeEncodedWords(_ value: String) -> String {
        let words = value.replacingOccurrences(of: "\r\n ", with: " ").split(separator: " ")
        let bytes = words.flatMap { word -> [UInt8] in
            let payload = word.dropFirst("=?UTF-8?B?".count).dropLast(2)
            return Array(Data(base64Encoded: String(payload)) ?? Data())
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func rendersHeadersAndBothParts() throws {
        let message = try rendered(mail())
        let headers = headerBlock(message).components(separatedBy: "\r\n")
        #expect(
            headers == [
                "From: \"Hale\" <noreply@hale.example>", "To: ada@example.org", "Subject: Hello",
                "Date: Tue, 01 Jul 2025 09:05:03 +0000", "Message-ID: <1234@hale.example>", "MIME-Version: 1.0",
                "Content-Type: multipart/alternative;", " boundary=\"=_test\"",
            ])
        let plain = try #require(message.range(of: "Content-Type: text/plain; charset=UTF-8"))
        let html = try #require(message.range(of: "Content-Type: text/html; charset=UTF-8"))
        #expect(plain.lowerBound < html.lowerBound)
        #expect(message.contains("quoted-printable\r\n\r\nPlain body\r\n--=_test\r\n"))
        #expect(message.hasSuffix("<p>HTML body</p>\r\n--=_test--\r\n"))
    }

    @Test func usesOnlyCRLFAndShortSevenBitLines() throws {
        let long = String(repeating: "Grüße ", count: 400) + "\n" + String(repeating: "x", count: 3000) + "\r\n.end"
        let longName = String(repeating: "Grüße ", count: 100)
        let bytes = try MIMEMessage.render(mail(subject: longName, fromName: longName, text: long, html: long))
        #expect(bytes.allSatisfy { $0 < 0x80 })
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains { $0 == "\r" || $0 == "\n" })
        let headerLines = headerBlock(text).components(separatedBy: "\r\n")
        #expect(headerLines.allSatisfy { $0.utf8.count <= "Subject: ".count + 75 }, "folded between encoded-words")
        let allLines = text.components(separatedBy: "\r\n")
        let bodyLines = allLines.dropFirst(headerLines.count)
        #expect(bodyLines.allSatisfy { $0.utf8.count <= QuotedPrintable.maximumLineLength })
    }

    @Test func encodesNonASCIISubjectAndName() throws {
        let subject = "Grüße aus Köln – ✓ " + String(repeating: "ß", count: 40)
        let headers = headerBlock(try rendered(mail(subject: subject, fromName: "Zoë Müller")))
        let subjectValue = try #require(
            headers.components(separatedBy: "\r\nDate:").first?
                .components(separatedBy: "Subject: ").last)
        #expect(subjectValue.contains("\r\n "), "a long subject is folded")
        #expect(subjectValue.components(separatedBy: "\r\n ").allSatisfy { $0.utf8.count <= 75 })
        #expect(decodeEncodedWords(subjectValue) == subject)
        let fromValue = try #require(headers.components(separatedBy: "\r\nTo:").first?.dropFirst("From: ".count))
        #expect(fromValue.hasSuffix("\r\n <noreply@hale.example>"))
        let encodedName = String(fromValue.dropLast("\r\n <noreply@hale.example>".count))
        #expect(decodeEncodedWords(encodedName) == "Zoë Müller")
    }

    @Test func quotesASCIIDisplayNames() throws {
        let headers = headerBlock(try rendered(mail(fromName: #"Ada "the" \Countess"#)))
        #expect(headers.hasPrefix(#"From: "Ada \"the\" \\Countess" <noreply@hale.example>"#))
    }

    @Test func encodesTextThatLooksLikeAnEncodedWord() throws {
        let headers = headerBlock(try rendered(mail(subject: "=?UTF-8?B?Zm9v?=")))
        #expect(!headers.contains("Subject: =?UTF-8?B?Zm9v?="))
    }

    @Test(arguments: ["Hi\r\nBcc: victim@example.org", "Hi\nBcc: x@y.z", "Hi\rX", "nul\u{0}", "sep\u{2028}x"])
    func rejectsHeaderInjectionInSubject(_ subject: String) {
        #expect(throws: MailFormatError.forbiddenCharacterInHeader(field: "Subject")) {
            try MIMEMessage.render(mail(subject: subject))
        }
    }

    @Test func rejectsHeaderInjectionInDisplayName() {
        #expect(throws: MailFormatError.forbiddenCharacterInHeader(field: "From")) {
            try MIMEMessage.render(mail(fromName: "Hale\r\nBcc: victim@example.org"))
        }
    }

    @Test(arguments: [
        "ada@example.org\r\nBcc: x@y.z", "no-at-sign", "two@@example.org", "a@b@c", "@example.org", "ada@",
        "ada lovelace@example.org", "<ada@example.org>", "ada@exämple.org", "a,b@example.org",
        String(repeating: "a", count: 250) + "@b.cd",
    ])
    func rejectsInvalidRecipient(_ address: String) {
        #expect(throws: MailFormatError.invalidAddress(field: "To")) { try MIMEMessage.render(mail(to: address)) }
    }

    @Test func acceptsAddressAtLengthLimit() throws {
        let address = String(repeating: "a", count: 249) + "@b.cd"
        #expect(address.utf8.count == MailAddress.maximumLength)
        _ = try MIMEMessage.render(mail(to: address))
    }

    @Test func rejectsInvalidSenderAndMessageID() {
        #expect(throws: MailFormatError.invalidAddress(field: "From")) {
            try MIMEMessage.render(mail(from: "noreply@hale.example\nBcc: x@y.z"))
        }
        var withBadID = mail()
        withBadID.messageID = "id@host>\r\nBcc: x@y.z"
        #expect(throws: MailFormatError.invalidMessageID) { try MIMEMessage.render(withBadID) }
    }

    @Test func rejectsBadBoundaries() {
        #expect(throws: MailFormatError.invalidBoundary) { try MIMEMessage.render(mail(), boundary: "") }
        #expect(throws: MailFormatError.invalidBoundary) { try MIMEMessage.render(mail(), boundary: "a\r\nb") }
        #expect(throws: MailFormatError.invalidBoundary) {
            try MIMEMessage.render(mail(text: "--boundary inside"), boundary: "boundary")
        }
    }

    @Test func defaultBoundaryAndMessageIDAreUnique() {
        #expect(MIMEMessage.makeBoundary() != MIMEMessage.makeBoundary())
        let generated = OutgoingMail(
            fromAddress: "a@hale.example", toAddress: "b@example.org", subject: "", textBody: "", htmlBody: "")
        #expect(generated.messageID.hasSuffix("@hale.example") && MailAddress.isValid(generated.messageID))
    }

    @Test func formatsDatesInUTCAsRFC5322() {
        #expect(RFC5322Date.format(Self.fixedDate) == "Tue, 01 Jul 2025 09:05:03 +0000")
        #expect(RFC5322Date.format(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 +0000")
    }
}
