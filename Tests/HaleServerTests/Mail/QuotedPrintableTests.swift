import Foundation
import Testing

@testable import HaleServer

/// The body transfer encoding, checked against an independent decoder.
@Suite("Quoted-printable")
struct QuotedPrintableTests {
    private func encoded(_ text: String) -> String {
        String(decoding: QuotedPrintable.encode(text), as: UTF8.self)
    }

    /// A straightforward decoder, independent of the encoder, for round trips.
    private func decoded(_ encoded: String) -> String {
        var bytes: [UInt8] = []
        let input = Array(encoded.replacingOccurrences(of: "=\r\n", with: "").utf8)
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "="), index + 2 < input.count,
                let value = UInt8(String(decoding: input[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(input[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func encodesSpecialBytes() {
        #expect(encoded("a=b é") == "a=3Db =C3=A9")
        #expect(encoded("trailing \nspace\t") == "trailing=20\r\nspace=09")
    }

    @Test func keepsLinesShortWithSoftBreaks() {
        let text = String(repeating: "0123456789é", count: 30)
        let lines = encoded(text).components(separatedBy: "\r\n")
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.utf8.count <= QuotedPrintable.maximumLineLength })
        #expect(decoded(encoded(text)) == text)
    }

    @Test func roundTripsMixedText() {
        let text = "Grüße,\r\n.leading dot\n= sign at start\r\nemoji 🎉 and tab\tinside  \nend"
        #expect(
            decoded(encoded(text))
                == text.replacingOccurrences(of: "\r\n", with: "\n")
                .replacingOccurrences(of: "\n", with: "\r\n"))
    }
}
