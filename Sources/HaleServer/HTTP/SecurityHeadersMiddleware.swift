import Vapor

/// Headers every response carries, errors included: `X-Content-Type-Options: nosniff`, so no answer is ever read as
/// another type than it declares, and `Cache-Control: no-store` unless the route set its own caching (the JWK Set
/// does), so no token, health value or account detail stays in a cache between a phone and the server. When Hale is
/// reached over HTTPS (`server.publicURL`), `Strict-Transport-Security` too, so a browser that has seen the account
/// page never asks for it over plain HTTP again.
struct SecurityHeadersMiddleware: AsyncMiddleware {
    /// Whether responses carry `Strict-Transport-Security`: from the configured public URL, never the request.
    let strictTransportSecurity: Bool

    /// A year, as browsers' preload lists ask.
    static let strictTransportSecurityValue = "max-age=31536000"

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        if strictTransportSecurity {
            response.headers.replaceOrAdd(name: "Strict-Transport-Security", value: Self.strictTransportSecurityValue)
        }
        if !response.headers.contains(name: .cacheControl) {
            response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        }
        return response
    }
}
