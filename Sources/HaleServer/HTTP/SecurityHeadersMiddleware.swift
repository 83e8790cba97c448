import Vapor

/// Headers every response carries, errors included: `X-Content-Type-Options: nosniff`, so no answer is ever read as
/// another type than it declares, and `Cache-Control: no-store` unless the route set its own caching (the JWK Set
/// does), so no token, health value or account detail stays in a cache between a phone and the server.
struct SecurityHeadersMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        if !response.headers.contains(name: .cacheControl) {
            response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        }
        return response
    }
}
