import Vapor

/// The key the admin API's caller presented, set by `AdminKeyMiddleware`.
struct AuthenticatedAdminKey: Authenticatable, Sendable {
    /// The key's identifier.
    let id: Int64
}

/// Authenticates the admin API: `Authorization: Bearer admin.<id>.<secret>`, and nothing else. Account tokens are
/// refused here, and admin keys are refused everywhere else (`BearerTokenVerifier` does not know them).
struct AdminKeyMiddleware: AsyncMiddleware {
    let keys: AdminAPIKeys

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let bearer = request.headers.bearerAuthorization, AdminAPIKeys.looksLikeAdminKey(bearer.token) else {
            throw HaleError.invalidAdminKey
        }
        request.auth.login(AuthenticatedAdminKey(id: try await keys.verify(bearer.token)))
        return try await next.respond(to: request)
    }
}

extension Request {
    /// The admin key the request authenticated with; throws the 401 on a route that did not check one.
    var adminKey: AuthenticatedAdminKey {
        get throws {
            guard let key = auth.get(AuthenticatedAdminKey.self) else { throw HaleError.invalidAdminKey }
            return key
        }
    }
}
