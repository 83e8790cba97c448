/// Builds a URL query with every value percent-encoded (RFC 3986 §2.1): only unreserved characters stay as they are,
/// so `|`, `&`, `=`, `+` and `/` in tokens and app secrets cannot change the query's meaning.
enum URLQuery {
    private static let unreserved = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// `base` followed by `?` and the `name=value` pairs joined with `&`.
    static func url(_ base: String, _ items: [(String, String)]) -> String {
        base + "?" + items.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }

    /// `text` with every byte outside the unreserved set written as `%XX`.
    static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                output.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                output +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return output
    }
}
