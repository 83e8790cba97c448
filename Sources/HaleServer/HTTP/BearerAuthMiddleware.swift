import Vapor

/// The one bearer authenticator of every protected route: it accepts access tokens and personal access tokens alike.
struct BearerAuthMiddleware: AsyncMiddleware {
    /// Whether a request without a bearer token may pass, unauthenticated. A token that is present is always
    /// verified: an invalid one is a 401, never a silent fall-back to anonymous.
    var optional = false

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let bearer = request.headers.bearerAuthorization else {
            guard optional, request.headers[.authorization].isEmpty else { throw HaleError.missingCredentials }
            return try await next.respond(to: request)
        }
        request.auth.login(try await request.hale.bearerTokens.verify(bearer.token))
        return try await next.respond(to: request)
    }
}
