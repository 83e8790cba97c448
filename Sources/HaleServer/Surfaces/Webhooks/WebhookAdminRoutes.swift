import Foundation
import Vapor

/// The app backend's webhook endpoints and their deliveries, under `/api/v1/admin/webhooks` with an admin API key:
/// what `hale webhooks` does from the command line.
struct WebhookAdminRoutes: RouteCollection {
    let webhooks: Webhooks
    let adminKeys: AdminAPIKeys

    func boot(routes: any RoutesBuilder) throws {
        let admin = routes.grouped("api", "v1", "admin", "webhooks").grouped(AdminKeyMiddleware(keys: adminKeys))
        admin.on(.POST, "endpoints", limit: .form, use: create)
        admin.get("endpoints", use: list)
        admin.delete("endpoints", ":endpointID", use: remove)
        admin.on(.POST, "endpoints", ":endpointID", "rotate-secret", limit: .small, use: rotate)
        admin.on(.POST, "endpoints", ":endpointID", "test", limit: .small, use: test)
        admin.get("deliveries", use: deliveries)
        admin.on(.POST, "deliveries", ":deliveryID", "replay", limit: .small, use: replay)
    }

    func create(_ request: Request) async throws -> Response {
        let body = try request.decodeStrict(CreateWebhookEndpointRequest.self)
        guard let url = body.url else { throw HaleError.invalidRequest("url is required") }
        guard let types = body.eventTypes else {
            throw HaleError.invalidRequest("eventTypes is required: the event types to send, or [\"*\"]")
        }
        let (endpoint, secret) = try await webhooks.add(
            url: url, eventTypes: types, description: body.description ?? "")
        return Response.json(
            CreatedWebhookEndpointResponse(endpoint: WebhookEndpointResponse(endpoint), secret: secret),
            status: .created)
    }

    func list(_ request: Request) async throws -> WebhookEndpointsResponse {
        WebhookEndpointsResponse(endpoints: try await webhooks.endpoints().map(WebhookEndpointResponse.init))
    }

    func remove(_ request: Request) async throws -> SuccessResponse {
        guard try await webhooks.remove(try Self.endpointID(request)) else { throw Self.noEndpoint }
        return SuccessResponse()
    }

    func rotate(_ request: Request) async throws -> RotatedWebhookSecretResponse {
        guard let rotated = try await webhooks.rotateSecret(of: try Self.endpointID(request)) else {
            throw Self.noEndpoint
        }
        return RotatedWebhookSecretResponse(
            secret: rotated.secret, previousSecretUntil: ISO8601.string(rotated.previousSecretUntil))
    }

    func test(_ request: Request) async throws -> Response {
        guard let message = try await webhooks.test(try Self.endpointID(request)) else { throw Self.noEndpoint }
        return Response.json(WebhookTestResponse(messageId: message), status: .accepted)
    }

    func deliveries(_ request: Request) async throws -> WebhookDeliveriesResponse {
        let query = QueryParameters(request.url.query)
        if let unknown = query.firstName(notIn: ["endpointId", "status", "limit"]) {
            throw HaleError.invalidRequest(
                "\"\(EchoedName.text(unknown))\" is not a parameter here: endpointId, status and limit are")
        }
        let endpoint = try query.single("endpointId").map { text in
            guard let id = UUID(uuidString: text) else { throw HaleError.invalidRequest("endpointId must be a UUID") }
            return id
        }
        let limit = try query.single("limit").map { text in
            guard let limit = Int(text) else { throw HaleError.invalidRequest("limit must be 1 to 500") }
            return limit
        }
        let status = try query.single("status").map { text in
            try InvalidInput.parse(text, as: WebhookDeliveryStatus.self, field: "status")
        }
        let found = try await webhooks.deliveries(endpoint: endpoint, status: status, limit: limit ?? 50)
        return WebhookDeliveriesResponse(deliveries: found.map(WebhookDeliveryResponse.init))
    }

    func replay(_ request: Request) async throws -> Response {
        guard let text = request.parameters.get("deliveryID"), let id = Int64(text), id > 0 else {
            throw HaleError.invalidRequest("deliveryID must be a delivery's id, a positive integer")
        }
        guard try await webhooks.replay(id) else {
            throw HaleError(.notFound, .notFound, message: "No delivered or failed delivery has this id.")
        }
        return Response.json(SuccessResponse(), status: .accepted)
    }

    private static func endpointID(_ request: Request) throws -> UUID {
        guard let text = request.parameters.get("endpointID"), let id = UUID(uuidString: text) else {
            throw HaleError.invalidRequest("endpointID must be a UUID")
        }
        return id
    }

    private static let noEndpoint = HaleError(.notFound, .notFound, message: "No webhook endpoint has this id.")
}
