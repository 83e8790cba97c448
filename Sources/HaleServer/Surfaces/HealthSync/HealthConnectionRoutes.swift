import Vapor

/// Seed 004's provider connections, designed under `/api/v1/health/connections`.
struct HealthConnectionRoutes: RouteCollection {
    let healthConnections: HealthConnections
    let bearerTokens: BearerTokenVerifier

    func boot(routes: any RoutesBuilder) throws {
        let connections = SignedInRoutes(
            routes.grouped("api", "v1", "health", "connections"),
            authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        connections.on(.POST, limit: .small, use: connect)
        connections.get(use: list)
        connections.delete(":provider", use: disconnect)
    }

    func connect(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        let body = try request.decodeStrict(ConnectRequest.self)
        let provider = try HealthProvider.named(body.provider)
        let connection = try await healthConnections.connect(
            provider: provider, permissions: try HealthSampleType.namedList(body.permissions),
            account: account.accountId)
        return Response.json(ConnectionResponse(connection: .init(connection)), status: .created)
    }

    func list(_ request: Request, _ account: AuthenticatedAccount) async throws -> ConnectionsResponse {
        let connections = try await healthConnections.list(of: account.accountId)
        return ConnectionsResponse(connections: connections.map(HealthConnectionResponse.init))
    }

    func disconnect(_ request: Request, _ account: AuthenticatedAccount) async throws -> ConnectionResponse {
        let connection = try await healthConnections.disconnect(
            provider: try HealthProvider.named(request.parameters.get("provider")), account: account.accountId)
        return ConnectionResponse(connection: .init(connection))
    }
}
