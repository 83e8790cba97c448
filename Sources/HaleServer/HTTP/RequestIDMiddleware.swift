import Foundation
import Vapor

/// Gives every request an id that is safe to log and echo: the client's `X-Request-Id` when it is 1 to 128 bytes of
/// `A-Z a-z 0-9 . _ -`, else a fresh UUID. The id goes on every log line of the request as `request-id` and back in
/// the response's `X-Request-Id`, so a client's report can be matched to the server's log lines.
///
/// Vapor puts the incoming header on the logger unchecked; this middleware, first in the chain, replaces it before
/// anything is logged, so a client cannot make log lines long or forge them.
struct RequestIDMiddleware: AsyncMiddleware {
    /// The longest client id kept.
    static let maximumLength = 128

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let id = Self.acceptable(request.headers.first(name: .xRequestId)) ?? UUID().uuidString
        request.logger[metadataKey: "request-id"] = .string(id)
        let response = try await next.respond(to: request)
        response.headers.replaceOrAdd(name: .xRequestId, value: id)
        return response
    }

    /// `id` when a client may choose it.
    static func acceptable(_ id: String?) -> String? {
        guard let id, (1...maximumLength).contains(id.utf8.count), id.utf8.allSatisfy(allowed.contains) else {
            return nil
        }
        return id
    }

    private static let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-".utf8)
}
