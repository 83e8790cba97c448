import Vapor

/// The one bearer authenticator of every protected route: it accepts access tokens and personal access tokens alike.
struct BearerAuthMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let bearer = request.headers.bearerAuthorization else { throw HaleError.missingCredentials }
        request.auth.login(try await request.hale.bearerTokens.verify(bearer.token))
        return try await next.respond(to: request)
    }
}
