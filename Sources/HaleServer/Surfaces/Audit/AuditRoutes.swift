import Foundation
import Vapor

/// `GET /api/v1/audit`: the signed-in account's own security events, newest first.
struct AuditRoutes: RouteCollection {
    let audit: AuditTrail
    let bearerTokens: BearerTokenVerifier

    func boot(routes: any RoutesBuilder) throws {
        SignedInRoutes(routes.grouped("api", "v1"), authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
            .get("audit", use: list)
    }

    func list(_ request: Request, _ account: AuthenticatedAccount) async throws -> AuditEventList {
        let limit = try request.query.get(Int?.self, at: "limit") ?? 100
        guard (1...500).contains(limit) else { throw HaleError.invalidRequest("limit must be between 1 and 500.") }
        let events = try await audit.events(of: account.accountId, limit: limit)
        return AuditEventList(events: events.map(AuditEventResponse.init))
    }
}

/// The account's events.
struct AuditEventList: Content {
    let events: [AuditEventResponse]
}

/// One event as its account sees it; the chain's hashes are for `hale audit verify`, not for clients.
struct AuditEventResponse: Content {
    let sequence: Int64
    let type: String
    let deviceId: String?
    let sessionId: String?
    let ipRange: String?
    let details: [String: String]
    let createdAt: String

    init(_ event: AuditEvent) {
        sequence = event.sequence
        type = event.eventType
        deviceId = event.deviceId?.description
        sessionId = event.sessionId?.description
        ipRange = event.ipRange
        details = (try? JSONDecoder().decode([String: String].self, from: Data(event.details.utf8))) ?? [:]
        createdAt = ISO8601.string(event.createdAt)
    }
}
