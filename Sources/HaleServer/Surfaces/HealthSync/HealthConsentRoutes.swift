import Vapor

/// Consent to synced health data. Seed 000 documents `POST /api/mobile/health/consent`; the same routes serve
/// seed 004's designed API under `/api/v1/health`.
struct HealthConsentRoutes: RouteCollection {
    /// Where the routes live: `["api", "mobile", "health"]` or `["api", "v1", "health"]`.
    let base: [PathComponent]
    /// Whether a Firebase ID token is a bearer token here: seed 000's app sends one to its consent route.
    var firebase = false
    let healthConsents: HealthConsents
    let bearerTokens: BearerTokenVerifier

    func boot(routes: any RoutesBuilder) throws {
        let consent = SignedInRoutes(
            routes.grouped(base).grouped("consent"),
            authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens, firebase: firebase))
        consent.on(.POST, limit: .small, use: grant)
        consent.get(use: current)
        consent.delete(use: revoke)
        consent.delete(":platform", use: revoke)
        consent.delete(":platform", ":permission", use: revoke)
    }

    func grant(_ request: Request, _ account: AuthenticatedAccount) async throws -> ConsentResponse {
        let body = try request.decodeStrict(ConsentRequest.self)
        let permissions = try HealthSampleType.list(body.permissions)
        let grants = try await healthConsents.grant(
            platform: try HealthPlatform.named(body.platform), permissions: permissions, to: account.accountId)
        return ConsentResponse(consent: grants.map(ConsentGrantResponse.init))
    }

    func current(_ request: Request, _ account: AuthenticatedAccount) async throws -> ConsentResponse {
        let grants = try await healthConsents.current(of: account.accountId)
        return ConsentResponse(consent: grants.map(ConsentGrantResponse.init))
    }

    func revoke(_ request: Request, _ account: AuthenticatedAccount) async throws -> ConsentRevocationResponse {
        let platform = try request.parameters.get("platform").map { try HealthPlatform.named($0) }
        let permission = try request.parameters.get("permission").map { try HealthSampleType.list([$0])[0] }
        let revoked = try await healthConsents.revoke(
            platform: platform, permission: permission, of: account.accountId)
        return ConsentRevocationResponse(revoked: revoked.map(ConsentGrantResponse.init))
    }
}
