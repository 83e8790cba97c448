import Vapor

/// Seed 004's provider connections, designed under `/api/v1/health/connections`.
struct HealthConnectionRoutes: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let connections = routes.grouped("api", "v1", "health", "connections").grouped(BearerAuthMiddleware())
        connections.on(.POST, limit: .small, use: connect)
        connections.get(use: list)
        connections.delete(":provider", use: disconnect)
    }

    func connect(_ request: Request) async throws -> Response {
        let body = try request.decodeStrict(ConnectRequest.self)
        let connection = try await request.hale.healthConnections.connect(
            provider: body.provider, permissions: body.permissions, account: try request.account.accountId)
        return Response.json(ConnectionResponse(connection: .init(connection)), status: .created)
    }

    func list(_ request: Request) async throws -> ConnectionsResponse {
        let connections = try await request.hale.healthConnections.list(of: try request.account.accountId)
        return ConnectionsResponse(connections: connections.map(HealthConnectionResponse.init))
    }

    func disconnect(_ request: Request) async throws -> ConnectionResponse {
        let connection = try await request.hale.healthConnections.disconnect(
            provider: request.parameters.get("provider") ?? "", account: try request.account.accountId)
        return ConnectionResponse(connection: .init(connection))
    }
}
