import Foundation

/// Renders an `OutgoingMail` as an RFC 5322 / MIME `multipart/alternative` message.
enum MIMEMessage {
    /// Characters RFC 2046 allows in a boundary (`bcharsnospace`, plus inner spaces which we never need).
    private static let boundaryCharacters = Set(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=?".unicodeScalars)

    /// A fresh random boundary.
    ///
    /// It starts with "=_", which can occur in neither quoted-printable nor base64 output, so it cannot collide with
    /// an encoded body.
    static func makeBoundary() -> String {
        "=_hale_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// The message as bytes: 7-bit ASCII with CRLF line endings and every line under 998 bytes.
    ///
    /// Throws when an address or the Message-ID is invalid, when a header value contains a line break or control
    /// character, or when `boundary` is unusable.
    static func render(_ mail: OutgoingMail, boundary: String = makeBoundary()) throws(MailFormatError) -> [UInt8] {
        try validateBoundary(boundary)
        let textPart = QuotedPrintable.encode(mail.textBody)
        let htmlPart = QuotedPrintable.encode(mail.htmlBody)
        try ensure(boundary, isAbsentFrom: [textPart, htmlPart])
        var lines = try headerLines(mail)
        lines.append("Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"")
        var message = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        message += partBytes(boundary: boundary, contentType: "text/plain", encodedBody: textPart)
        message += partBytes(boundary: boundary, contentType: "text/html", encodedBody: htmlPart)
        message += Array("--\(boundary)--\r\n".utf8)
        return message
    }

    /// The top-level header lines, without CRLF, excluding `Content-Type`.
    static func headerLines(_ mail: OutgoingMail) throws(MailFormatError) -> [String] {
        guard MailAddress.isValid(mail.messageID) else { throw .invalidMessageID }
        let from = try MIMEHeaderEncoding.mailbox(address: mail.fromAddress, displayName: mail.fromName, field: "From")
        let to = try MIMEHeaderEncoding.mailbox(address: mail.toAddress, displayName: nil, field: "To")
        return [
            "From: \(from)",
            "To: \(to)",
            try MIMEHeaderEncoding.unstructuredHeader("Subject", mail.subject),
            "Date: \(RFC5322Date.format(mail.date))",
            "Message-ID: <\(mail.messageID)>",
            "MIME-Version: 1.0",
        ]
    }

    private static func partBytes(boundary: String, contentType: String, encodedBody: [UInt8]) -> [UInt8] {
        let header = [
            "--\(boundary)",
            "Content-Type: \(contentType); charset=UTF-8",
            "Content-Transfer-Encoding: quoted-printable",
        ]
        return Array((header.joined(separator: "\r\n") + "\r\n\r\n").utf8) + encodedBody + [0x0D, 0x0A]
    }

    private static func validateBoundary(_ boundary: String) throws(MailFormatError) {
        let isWellFormed =
            (1...70).contains(boundary.unicodeScalars.count)
            && boundary.unicodeScalars.allSatisfy(boundaryCharacters.contains)
        guard isWellFormed else { throw .invalidBoundary }
    }

    /// A caller-chosen boundary could appear in a body; the random default cannot.
    private static func ensure(_ boundary: String, isAbsentFrom parts: [[UInt8]]) throws(MailFormatError) {
        let delimiter = Array("--\(boundary)".utf8)
        for part in parts where contains(part, delimiter) {
            throw .invalidBoundary
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }
}
