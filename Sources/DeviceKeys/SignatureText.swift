/// The signature a client submits as text: standard base64 on one line, as Android's `Base64.NO_WRAP` and iOS's
/// `base64EncodedString()` write it. Every documented client pads; unpadded text is accepted because it is unambiguous.
enum SignatureText {
    /// An RSA-8192 signature; nothing accepted is longer.
    static let maximumByteCount = 1024
    private static let maximumTextLength = DevicePublicKey.maximumSignatureTextLength
    private static let whitespace: Set<UInt8> = [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20]
    private static let base64URLOnly: Set<UInt8> = [UInt8(ascii: "-"), UInt8(ascii: "_")]

    /// The signature bytes `text` encodes.
    static func bytes(of text: String) throws(DeviceKeyError) -> [UInt8] {
        let characters = Array(text.utf8.prefix(maximumTextLength + 1))
        guard !characters.isEmpty else { throw .emptySignature }
        guard characters.count <= maximumTextLength else { throw .signatureTooLarge }
        guard !characters.contains(where: whitespace.contains) else { throw .signatureWhitespace }
        guard !characters.contains(where: base64URLOnly.contains) else { throw .signatureBase64URL }
        guard let bytes = StandardBase64.decode(characters, paddingRequired: false) else {
            throw .invalidSignatureBase64
        }
        guard bytes.count <= maximumByteCount else { throw .signatureTooLarge }
        return bytes
    }
}
