import Foundation

/// Builds header field values that are safe to emit: no injected line breaks, non-ASCII as RFC 2047 encoded-words,
/// and lines kept short by folding between encoded-words.
enum MIMEHeaderEncoding {
    /// The line length RFC 5322 recommends; longer unstructured values are encoded and folded.
    static let recommendedLineLength = 78

    /// Longer display names are encoded so they can be folded.
    private static let longestQuotedDisplayName = 60

    /// UTF-8 bytes per encoded-word: 45 bytes → 60 base64 characters, plus 12 for `=?UTF-8?B?` and `?=`, is within
    /// the 75 characters RFC 2047 allows.
    private static let bytesPerEncodedWord = 45

    /// Line separators that some mail software treats as line breaks, besides the C0 controls.
    private static let unicodeLineBreaks: Set<Unicode.Scalar> = ["\u{85}", "\u{2028}", "\u{2029}"]

    /// Throws unless `value` is free of CR, LF, other control characters (tab aside) and Unicode line separators.
    static func rejectForbiddenCharacters(in value: String, field: String) throws(MailFormatError) {
        for scalar in value.unicodeScalars where isForbidden(scalar) {
            throw .forbiddenCharacterInHeader(field: field)
        }
    }

    /// A complete `Name: value` header line (without the final CRLF) for free text such as `Subject`.
    static func unstructuredHeader(_ name: String, _ value: String) throws(MailFormatError) -> String {
        try rejectForbiddenCharacters(in: value, field: name)
        let plain = "\(name): \(value)"
        if !needsEncoding(value) && plain.utf8.count <= recommendedLineLength { return plain }
        return "\(name): " + encodedWords(value).joined(separator: "\r\n ")
    }

    /// A mailbox such as `"Ada L." <ada@example.org>`, `=?UTF-8?B?…?= <ada@example.org>` or `ada@example.org`.
    static func mailbox(address: String, displayName: String?, field: String) throws(MailFormatError) -> String {
        try MailAddress.validate(address, field: field)
        guard let displayName, !displayName.isEmpty else { return address }
        try rejectForbiddenCharacters(in: displayName, field: field)
        if needsEncoding(displayName) || displayName.utf8.count > longestQuotedDisplayName {
            return (encodedWords(displayName) + ["<\(address)>"]).joined(separator: "\r\n ")
        }
        return quotedString(displayName) + " <\(address)>"
    }

    /// `text` as a sequence of `=?UTF-8?B?…?=` encoded-words, split only between Unicode scalars.
    static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > bytesPerEncodedWord {
                words.append(encodedWord(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append(encodedWord(chunk)) }
        return words
    }

    private static func encodedWord(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?\(Data(bytes).base64EncodedString())?="
    }

    private static func quotedString(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(escaped)\""
    }

    /// Whether `text` has anything but printable ASCII and spaces, or something a decoder would take for an
    /// encoded-word.
    private static func needsEncoding(_ text: String) -> Bool {
        text.contains("=?") || !text.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let isControl = scalar.value < 0x20 && scalar != "\t"
        return isControl || scalar.value == 0x7F || unicodeLineBreaks.contains(scalar)
    }
}
