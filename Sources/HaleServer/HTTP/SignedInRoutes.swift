import Vapor

/// Routes only a signed-in account reaches. Their authenticator runs before them, and each handler receives the
/// account it proved as a plain value, so no handler asks the request who is signed in.
struct SignedInRoutes {
    private let routes: any RoutesBuilder

    /// Routes below `routes` behind `authenticator`, which logs in an `AuthenticatedAccount` or refuses the request.
    init(_ routes: any RoutesBuilder, authenticatedBy authenticator: any Middleware) {
        self.routes = routes.grouped(authenticator)
    }

    private init(grouped routes: any RoutesBuilder) {
        self.routes = routes
    }

    /// The same routes below `path`.
    func grouped(_ path: PathComponent...) -> SignedInRoutes {
        SignedInRoutes(grouped: routes.grouped(path))
    }

    /// The same routes behind `middleware` too, which runs after the authenticator.
    func grouped(_ middleware: any Middleware...) -> SignedInRoutes {
        SignedInRoutes(grouped: routes.grouped(middleware))
    }

    /// A route whose body is collected up to `limit` (else `server.maxBodySize`).
    @discardableResult
    func on<Response: AsyncResponseEncodable>(
        _ method: HTTPMethod, _ path: PathComponent..., limit: BodyLimit? = nil,
        use handler: @Sendable @escaping (Request, AuthenticatedAccount) async throws -> Response
    ) -> Route {
        route(method, path, limit: limit, use: handler)
    }

    /// A route whose body reaches the handler as `strategy` says, held to no `BodyLimit`: `.stream` for one the
    /// handler reads as it arrives and holds to a limit of its own.
    @discardableResult
    func on<Response: AsyncResponseEncodable>(
        _ method: HTTPMethod, _ path: PathComponent..., body strategy: HTTPBodyStreamStrategy,
        use handler: @Sendable @escaping (Request, AuthenticatedAccount) async throws -> Response
    ) -> Route {
        routes.on(method, path, body: strategy, use: Self.signedIn(handler))
    }

    /// A `GET` route.
    @discardableResult
    func get<Response: AsyncResponseEncodable>(
        _ path: PathComponent...,
        use handler: @Sendable @escaping (Request, AuthenticatedAccount) async throws -> Response
    ) -> Route {
        route(.GET, path, limit: nil, use: handler)
    }

    /// A `DELETE` route.
    @discardableResult
    func delete<Response: AsyncResponseEncodable>(
        _ path: PathComponent...,
        use handler: @Sendable @escaping (Request, AuthenticatedAccount) async throws -> Response
    ) -> Route {
        route(.DELETE, path, limit: nil, use: handler)
    }

    private func route<Response: AsyncResponseEncodable>(
        _ method: HTTPMethod, _ path: [PathComponent], limit: BodyLimit?,
        use handler: @Sendable @escaping (Request, AuthenticatedAccount) async throws -> Response
    ) -> Route {
        let signedIn = Self.signedIn(handler)
        guard let limit else { return routes.on(method, path, use: signedIn) }
        let route = routes.on(method, path, body: limit.strategy, use: signedIn)
        route.userInfo[BodyLimit.userInfoKey] = limit.bytes
        return route
    }

    /// `handler` given the account the authenticator logged in. It always ran first, so the account is there; were
    /// a route ever registered without it, this is the 401, never a crash.
    private static func signedIn<Response: AsyncResponseEncodable>(
        _ handler: @Sendable @escaping (Request, AuthenticatedAccount) async throws -> Response
    ) -> @Sendable (Request) async throws -> Response {
        { request in try await handler(request, try request.account) }
    }
}
