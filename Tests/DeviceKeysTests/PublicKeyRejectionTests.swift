import Crypto
import DeviceKeys
import Foundation
import Testing
import _CryptoExtras

@Suite("Public keys that are refused, one test per reason")
struct PublicKeyRejectionTests {
    private let iOSPEM = ClientPEM.iOSNative(Fixtures.p256DER)

    @Test("Bare base64 without a PEM header is not PEM")
    func notPEM() {
        let bare = Data(Fixtures.p256DER).base64EncodedString()
        expectRejection("MALFORMED_PEM") { _ = try DevicePublicKey(pemRepresentation: bare) }
    }

    @Test("A header without a matching footer is not PEM")
    func missingFooter() {
        let truncated = String(iOSPEM.dropLast(ClientPEM.footer.count + 1))
        expectRejection("MALFORMED_PEM") { _ = try DevicePublicKey(pemRepresentation: truncated) }
    }

    @Test("A header and footer with no body between them is not PEM")
    func emptyBody() {
        let empty = "\(ClientPEM.header)\n\(ClientPEM.footer)"
        expectRejection("MALFORMED_PEM") { _ = try DevicePublicKey(pemRepresentation: empty) }
    }

    @Test("Lines of uneven length are not a shape any client writes")
    func unevenLines() {
        let uneven = iOSPEM.replacingOccurrences(of: "\n", with: "", options: [], range: nil)
            .replacingOccurrences(of: ClientPEM.header, with: ClientPEM.header + "\n")
            .replacingOccurrences(of: ClientPEM.footer, with: "\n" + ClientPEM.footer)
        expectRejection("MALFORMED_PEM") { _ = try DevicePublicKey(pemRepresentation: uneven) }
    }

    /// A PEM document of `der` with its base64 cut into lines of these lengths (the last takes the rest).
    private func pem(_ der: [UInt8], lines lengths: [Int], footer: String = ClientPEM.footer) -> String {
        var body = Substring(Data(der).base64EncodedString())
        var lines: [Substring] = []
        for length in lengths {
            lines.append(body.prefix(length))
            body = body.dropFirst(length)
        }
        lines.append(body)
        return ([ClientPEM.header] + lines.map(String.init) + [footer]).joined(separator: "\n")
    }

    @Test("A middle line shorter than the first, the next longer: no client wraps so")
    func unevenMiddleLines() throws {
        let der = try SPKIBuilder.rsa(modulusBits: 2048)
        #expect(Data(der).base64EncodedString().count == 392)
        let even = pem(der, lines: Array(repeating: 64, count: 6))
        #expect(throws: Never.self) { try DevicePublicKey(pemRepresentation: even) }
        let uneven = pem(der, lines: [64, 60, 68, 64, 64, 64])
        expectRejection("MALFORMED_PEM") { _ = try DevicePublicKey(pemRepresentation: uneven) }
    }

    @Test("A last line longer than the others")
    func longLastLine() {
        expectRejection("MALFORMED_PEM") {
            _ = try DevicePublicKey(pemRepresentation: pem(Fixtures.p256DER, lines: [54]))
        }
    }

    @Test("A footer of another label than the header's")
    func mismatchedFooter() {
        let other = pem(Fixtures.p256DER, lines: [64], footer: "-----END RSA PUBLIC KEY-----")
        expectRejection("MALFORMED_PEM") { _ = try DevicePublicKey(pemRepresentation: other) }
    }

    @Test("A carriage return after the last line feed")
    func carriageReturnAtTheEnd() {
        expectRejection("MALFORMED_PEM") { _ = try DevicePublicKey(pemRepresentation: iOSPEM + "\n\r") }
    }

    @Test("A well-formed document of exactly the longest length is read, and its key refused for its size")
    func longestDocument() throws {
        // 8,032 base64 characters in 108 lines of 74 and one of 40: with the header, the footer and 110 line
        // feeds, exactly 8,192 bytes.
        let der = try #require(
            try (47_850...47_950).lazy.map { try SPKIBuilder.rsa(modulusBits: $0) }
                .first { Data($0).base64EncodedString().count == 8_032 })
        let longest = pem(der, lines: Array(repeating: 74, count: 108))
        #expect(longest.utf8.count == DevicePublicKey.maximumPEMLength)
        expectRejection("RSA_KEY_TOO_LARGE") { _ = try DevicePublicKey(pemRepresentation: longest) }
    }

    @Test("A well-formed document longer than any supported key is refused for its length, before its key is read")
    func oversizedWellFormed() throws {
        let huge = ClientPEM.iOSNative(try SPKIBuilder.rsa(modulusBits: 50_000))
        #expect(huge.utf8.count > DevicePublicKey.maximumPEMLength)
        expectRejection("MALFORMED_PEM") { _ = try DevicePublicKey(pemRepresentation: huge) }
    }

    @Test("LF and CRLF mixed in one document")
    func mixedLineEndings() {
        let mixed = iOSPEM.replacingOccurrences(of: "\(ClientPEM.header)\n", with: "\(ClientPEM.header)\r\n")
        expectRejection("MALFORMED_PEM") { _ = try DevicePublicKey(pemRepresentation: mixed) }
    }

    @Test("A document longer than any supported key")
    func oversizedText() {
        let huge = String(repeating: "A", count: 9000)
        expectRejection("MALFORMED_PEM") { _ = try DevicePublicKey(pemRepresentation: huge) }
    }

    @Test("A PRIVATE KEY document")
    func privateKeyLabel() {
        let pem = Fixtures.p256Key.pemRepresentation
        expectRejection("WRONG_PEM_LABEL") { _ = try DevicePublicKey(pemRepresentation: pem) }
    }

    @Test("A CERTIFICATE document")
    func certificateLabel() {
        let pem = iOSPEM.replacingOccurrences(of: "PUBLIC KEY", with: "CERTIFICATE")
        expectRejection("WRONG_PEM_LABEL") { _ = try DevicePublicKey(pemRepresentation: pem) }
    }

    @Test("A character outside the base64 alphabet")
    func badBase64Character() {
        let pem = iOSPEM.replacingOccurrences(of: "MFkw", with: "MF*w")
        expectRejection("INVALID_PEM_BASE64") { _ = try DevicePublicKey(pemRepresentation: pem) }
    }

    @Test("Base64 without its padding")
    func missingPadding() {
        let pem = iOSPEM.replacingOccurrences(of: "=", with: "")
        expectRejection("INVALID_PEM_BASE64") { _ = try DevicePublicKey(pemRepresentation: pem) }
    }

    @Test("Text after the footer")
    func trailingText() {
        let pem = iOSPEM + "\nsomething else"
        expectRejection("PEM_TRAILING_DATA") { _ = try DevicePublicKey(pemRepresentation: pem) }
    }

    @Test("More than one line break after the footer")
    func trailingBlankLine() {
        let pem = iOSPEM + "\n\n"
        expectRejection("PEM_TRAILING_DATA") { _ = try DevicePublicKey(pemRepresentation: pem) }
    }

    @Test("Valid base64 of bytes that are not DER")
    func invalidDER() {
        let pem = ClientPEM.iOSNative([0x30, 0x05, 0x02, 0x01])
        expectRejection("MALFORMED_PUBLIC_KEY") { _ = try DevicePublicKey(pemRepresentation: pem) }
    }

    @Test("A SubjectPublicKeyInfo followed by extra bytes")
    func trailingDERBytes() {
        let der = Fixtures.p256DER + [0x00]
        expectRejection("MALFORMED_PUBLIC_KEY") { _ = try DevicePublicKey(derRepresentation: der) }
    }

    @Test("A P-384 key")
    func p384() {
        let der = Array(P384.Signing.PrivateKey().publicKey.derRepresentation)
        expectRejection("UNSUPPORTED_CURVE") { _ = try DevicePublicKey(pemRepresentation: ClientPEM.iOSNative(der)) }
    }

    @Test("An Ed25519 key")
    func ed25519() {
        expectRejection("UNSUPPORTED_KEY_TYPE") { _ = try DevicePublicKey(pemRepresentation: Fixtures.ed25519PEM) }
    }

    @Test("A P-256 point that is not on the curve")
    func pointNotOnCurve() throws {
        var point = Array(Fixtures.p256Key.publicKey.x963Representation)
        point[64] ^= 0x01
        let der = try SPKIBuilder.p256(point: point)
        expectRejection("INVALID_EC_POINT") { _ = try DevicePublicKey(derRepresentation: der) }
    }

    @Test("A P-256 key whose BIT STRING declares unused bits: not the one encoding of the key")
    func bitStringWithUnusedBits() throws {
        // A point whose last byte is even, so one unused bit is a valid BIT STRING in itself.
        var key = P256.Signing.PrivateKey().publicKey
        while key.x963Representation.last! & 1 != 0 { key = P256.Signing.PrivateKey().publicKey }
        var der = Array(key.derRepresentation)
        #expect(throws: Never.self) { try DevicePublicKey(derRepresentation: der) }
        // The SubjectPublicKeyInfo ends with BIT STRING (03 42), its unused-bit count (00), then the 65-byte point.
        #expect(Array(der[der.count - 68..<der.count - 65]) == [0x03, 0x42, 0x00])
        der[der.count - 66] = 1
        expectRejection("MALFORMED_PUBLIC_KEY") { _ = try DevicePublicKey(derRepresentation: der) }
    }

    @Test("A compressed P-256 point, which no documented client exports")
    func compressedPoint() throws {
        let der = try SPKIBuilder.p256(point: Array(Fixtures.p256Key.publicKey.compressedRepresentation))
        expectRejection("EC_POINT_NOT_UNCOMPRESSED") { _ = try DevicePublicKey(derRepresentation: der) }
    }

    @Test("An uncompressed point's tag with only X after it, 33 bytes")
    func uncompressedTagCutShort() throws {
        let point = Array(Fixtures.p256Key.publicKey.x963Representation.prefix(33))
        let der = try SPKIBuilder.p256(point: point)
        expectRejection("EC_POINT_NOT_UNCOMPRESSED") { _ = try DevicePublicKey(derRepresentation: der) }
    }

    @Test("A P-256 point in X9.62's hybrid form (0x06 or 0x07, then X and Y): 65 bytes, but not uncompressed")
    func hybridPoint() throws {
        var point = Array(Fixtures.p256Key.publicKey.x963Representation)
        point[0] = 0x06 | (point[64] & 1)
        let der = try SPKIBuilder.p256(point: point)
        expectRejection("EC_POINT_NOT_UNCOMPRESSED") { _ = try DevicePublicKey(derRepresentation: der) }
    }

    @Test("An RSA key of 1024 bits")
    func rsaTooSmall() throws {
        let der = Array(try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024)).publicKey.derRepresentation)
        expectRejection("RSA_KEY_TOO_SMALL") { _ = try DevicePublicKey(pemRepresentation: ClientPEM.iOSNative(der)) }
    }

    @Test("An RSA key of 8193 bits, refused before any cryptography runs")
    func rsaTooLarge() throws {
        let der = try SPKIBuilder.rsa(modulusBits: 8193)
        expectRejection("RSA_KEY_TOO_LARGE") { _ = try DevicePublicKey(pemRepresentation: ClientPEM.iOSNative(der)) }
    }

    @Test("An RSA key whose algorithm has no NULL parameters")
    func rsaWithoutNullParameters() throws {
        let der = try SPKIBuilder.rsa(modulusBits: 2048, nullParameters: false)
        expectRejection("MALFORMED_PUBLIC_KEY") { _ = try DevicePublicKey(derRepresentation: der) }
    }

    @Test("An RSA key whose exponent is zero")
    func rsaZeroExponent() throws {
        let der = try SPKIBuilder.rsa(modulusBits: 2048, exponent: [0x00])
        expectRejection("MALFORMED_PUBLIC_KEY") { _ = try DevicePublicKey(derRepresentation: der) }
    }

    @Test("RSA keys of exactly 2048 and 8192 bits, the bounds, are read")
    func rsaBounds() throws {
        for bits in [2048, 8192] {
            let key = try DevicePublicKey(derRepresentation: try SPKIBuilder.rsa(modulusBits: bits))
            #expect(key.kind == .rsa(bits: bits))
        }
    }

    @Test("The error names the RSA key's size")
    func rsaSizeInError() throws {
        let der = try SPKIBuilder.rsa(modulusBits: 9000)
        #expect(throws: DeviceKeyError.rsaKeyTooLarge(bits: 9000)) { try DevicePublicKey(derRepresentation: der) }
    }
}
