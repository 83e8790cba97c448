import ByteEncoding

extension Base64URL {
    /// `text` without `=` padding, so digests written either way compare equal.
    static func unpadded(_ text: String) -> Substring {
        text[..<(text.firstIndex(of: "=") ?? text.endIndex)]
    }
}
