/// Line splitting shared by the MIME renderer and the DATA encoder.
enum MailLineBreaks {
    /// Splits UTF-8 bytes on CRLF, lone CR and lone LF.
    static func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                lines.append(bytes[start..<index])
                let isCRLF = byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A
                index += isCRLF ? 2 : 1
                start = index
            } else {
                index += 1
            }
        }
        lines.append(bytes[start..<bytes.count])
        return lines
    }
}
