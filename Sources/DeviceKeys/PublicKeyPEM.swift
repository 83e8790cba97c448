/// Reads and writes `PUBLIC KEY` PEM documents (RFC 7468 §13) in exactly the shapes the documented clients write:
/// LF or CRLF line endings used throughout, base64 lines of equal length up to 76 characters (64 on iOS and in React
/// Native, 76 from Android's `Base64.DEFAULT`), and at most one line break after the footer.
enum PublicKeyPEM {
    static let header = "-----BEGIN PUBLIC KEY-----"
    static let footer = "-----END PUBLIC KEY-----"
    static let maximumTextLength = DevicePublicKey.maximumPEMLength
    static let maximumLineLength = 76
    static let lineLength = 64
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// The DER the document carries.
    static func der(from text: String) throws(DeviceKeyError) -> [UInt8] {
        guard text.utf8.count <= maximumTextLength else { throw .malformedPEM }
        let lines = try self.lines(of: Array(text.utf8))
        try checkHeader(lines[0])
        guard let footerIndex = lines.firstIndex(where: { $0.starts(with: "-----END ".utf8) }),
            lines[footerIndex].elementsEqual(footer.utf8)
        else { throw .malformedPEM }
        try checkNothingFollows(lines[(footerIndex + 1)...])
        return try decodeBody(lines[1..<footerIndex])
    }

    /// `der` as PEM, wrapped at 64 characters with LF line endings and no line break after the footer, as iOS writes it.
    static func text(of der: [UInt8]) -> String {
        let base64 = Array(StandardBase64.encode(der))
        let body = stride(from: 0, to: base64.count, by: lineLength).map {
            String(base64[$0..<min($0 + lineLength, base64.count)])
        }
        return ([header] + body + [footer]).joined(separator: "\n")
    }

    /// The lines of `text`, without their LF or CRLF endings; the last is empty when the text ends with a line break.
    /// Bytes, not characters: to a Swift `String`, CRLF is one character.
    private static func lines(of text: [UInt8]) throws(DeviceKeyError) -> [ArraySlice<UInt8>] {
        let lines = text.split(separator: lineFeed, omittingEmptySubsequences: false)
        let usesCRLF = lines.count > 1 && lines[0].last == carriageReturn
        let terminated = lines.dropLast()
        guard terminated.allSatisfy({ ($0.last == carriageReturn) == usesCRLF }), let last = lines.last,
            !last.contains(carriageReturn)
        else { throw .malformedPEM }
        return terminated.map { usesCRLF ? $0.dropLast() : $0 } + [last]
    }

    private static func checkHeader(_ line: ArraySlice<UInt8>) throws(DeviceKeyError) {
        guard !line.elementsEqual(header.utf8) else { return }
        let isOtherLabel = line.starts(with: "-----BEGIN ".utf8) && line.reversed().starts(with: "-----".utf8)
        throw isOtherLabel ? .wrongPEMLabel : .malformedPEM
    }

    private static func checkNothingFollows(_ lines: ArraySlice<ArraySlice<UInt8>>) throws(DeviceKeyError) {
        guard lines.isEmpty || lines.count == 1 && lines[lines.startIndex].isEmpty else { throw .pemTrailingData }
    }

    private static func decodeBody(_ lines: ArraySlice<ArraySlice<UInt8>>) throws(DeviceKeyError) -> [UInt8] {
        guard let width = lines.first?.count, (1...maximumLineLength).contains(width),
            lines.dropLast().allSatisfy({ $0.count == width }), let last = lines.last, last.count <= width
        else { throw .malformedPEM }
        // Every line holds a character and padding alone is not base64, so what decodes is never empty.
        guard let der = StandardBase64.decode(lines.joined(), paddingRequired: true) else { throw .invalidPEMBase64 }
        return der
    }
}
