import Foundation

/// Unpadded base64url (RFC 7515 §2), as compact JOSE serializations use it.
enum Base64URL {
    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The bytes `text` encodes, or `nil` if it is not unpadded base64url.
    static func decode(_ text: Substring) -> [UInt8]? {
        guard text.utf8.allSatisfy(alphabet.contains), text.utf8.count % 4 != 1 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }

    /// `text` without `=` padding, so digests written either way compare equal.
    static func unpadded(_ text: String) -> Substring {
        text[..<(text.firstIndex(of: "=") ?? text.endIndex)]
    }
}
