import Vapor

/// Logs each request's method and path, as Vapor's `RouteLoggingMiddleware` does, but never a character a client
/// could forge a log line with: Vapor's logs the path percent-decoded, so `%0A` starts a new line. Here the path is
/// logged as it arrived, still percent-encoded, with any byte outside printable ASCII encoded too, and cut at
/// `maximumLength` bytes.
struct RequestLogMiddleware: AsyncMiddleware {
    let level: Logger.Level
    /// The longest path logged; a longer one ends with `…`.
    static let maximumLength = 512

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        request.logger.log(level: level, "\(request.method) \(Self.loggable(request.url.path))")
        return try await next.respond(to: request)
    }

    /// `path` with every byte outside U+0021–U+007E percent-encoded, at most `maximumLength` bytes of it.
    static func loggable(_ path: String) -> String {
        var text = ""
        for byte in path.utf8.prefix(maximumLength) {
            if (0x21...0x7E).contains(byte) {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return path.utf8.count > maximumLength ? text + "…" : text
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
