/// How the targets read an input that carries several values: an optional mode byte first, then parts cut apart at
/// ``separator``. Raw parts let mutations reach the bytes a parser sees, which base64 inside JSON would hide.
enum FuzzInput {
    /// `\0HALE\0`: no JSON, base64 or PEM text contains it, and the dictionaries list it so mutations keep it.
    static let separator: [UInt8] = [0x00, 0x48, 0x41, 0x4C, 0x45, 0x00]

    /// `bytes` cut at every separator; one part when there is none.
    static func parts(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = start
        while index + separator.count <= bytes.endIndex {
            if bytes[index..<index + separator.count].elementsEqual(separator) {
                parts.append(bytes[start..<index])
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(bytes[start...])
        return parts
    }

    /// The mode byte and the parts after it, or nil for an empty input.
    static func modeAndParts(_ bytes: [UInt8]) -> (mode: UInt8, parts: [ArraySlice<UInt8>])? {
        guard let mode = bytes.first else { return nil }
        return (mode, parts(bytes.dropFirst()))
    }

    /// The UTF-8 text of `bytes`, with invalid sequences replaced, as a server's HTTP layer hands text on.
    static func text(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

extension Array {
    /// The element at `index`, or nil past the end.
    subscript(ifPresent index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
