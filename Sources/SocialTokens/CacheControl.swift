import Foundation

/// How long a key set may be used, read from its `Cache-Control` (RFC 9111 §5.2.2).
enum CacheControl {
    /// The lifetime when the response gives none (no `max-age`, `max-age=0`, `no-cache` or `no-store`): short, so
    /// that rotated keys arrive soon, and long enough that a busy server does not fetch on every sign-in.
    static let defaultLifetime: Duration = .seconds(300)
    /// The longest lifetime honoured, whatever `max-age` says.
    static let maximumLifetime: Duration = .seconds(86_400)

    /// The lifetime the `Cache-Control` fields of `response` allow.
    static func lifetime(of response: SocialHTTPResponse) -> Duration {
        var maxAge: Int?
        for value in response.values(of: "Cache-Control") {
            for directive in value.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces).lowercased()
                }
                switch parts.first {
                case "no-cache", "no-store": return defaultLifetime
                case "max-age" where parts.count == 2:
                    maxAge = Int(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
                default: continue
                }
            }
        }
        guard let maxAge, maxAge > 0 else { return defaultLifetime }
        return min(.seconds(maxAge), maximumLifetime)
    }
}
