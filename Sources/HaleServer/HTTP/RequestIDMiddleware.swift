import Vapor

/// Echoes the request id in `X-Request-Id`, so a client's report can be matched to the server's log lines.
///
/// Vapor takes the id from the incoming `X-Request-Id` header or makes one, and puts it on every log line of the
/// request as `request-id`.
struct RequestIDMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        response.headers.replaceOrAdd(name: .xRequestId, value: request.id)
        return response
    }
}
