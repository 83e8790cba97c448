import Foundation
import StrictJSON
import Vapor

/// Seed 001's Health Data API, with its error shape `{statusCode, message, error}`.
struct HealthRoutes: RouteCollection {
    /// The path prefix whose errors use seed 001's shape.
    static let path = "/health"

    let health: HealthData
    let bearerTokens: BearerTokenVerifier
    let requestLimits: RequestLimits

    func boot(routes: any RoutesBuilder) throws {
        let signedIn = SignedInRoutes(
            routes.grouped("health"), authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        // Each nonce is a stored single-use row and each submission or key an attestation to verify.
        let attested = signedIn.grouped(requestLimits.perAccount(.attestationPerAccount))
        attested.get("attestation-nonce", use: nonce)
        attested.on(.POST, limit: .document, use: submit)
        attested.on(.POST, "attestation-keys", limit: .document, use: registerKey)
        signedIn.get("statistics", use: statistics)
        signedIn.get("today", use: today)
    }

    func nonce(_ request: Request, _ account: AuthenticatedAccount) async throws -> NonceResponse {
        try Self.rejectQuery(request, allowing: [])
        let issued = try await health.issueNonce(for: account.accountId)
        return NonceResponse(nonce: issued.value, expiresAt: ISO8601.string(issued.challenge.expiresAt))
    }

    /// Seed 001's attested submission: 201 with the stored day, `replaced` saying whether it replaced an earlier
    /// submission for the same day and source.
    func submit(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        try Self.rejectQuery(request, allowing: [])
        let submission = try HealthSubmissionBody.read(try Self.json(of: request))
        let timeZone = try await health.timeZone(of: account.accountId, sent: try request.timeZoneHeader())
        let (stored, replaced) = try await health.submit(
            submission, account: account.accountId, device: account.deviceId, in: timeZone, logger: request.logger)
        return Response.json(HealthSubmissionResponse(stored, replaced: replaced), status: .created)
    }

    /// Registers an iOS app's App Attest key once: `{keyId, attestation, nonce}`, the attestation made with
    /// clientDataHash = SHA-256 of the nonce, as seed 001's iOS sample makes it.
    func registerKey(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        try Self.rejectQuery(request, allowing: [])
        let body = try AttestationKeyBody.read(try Self.json(of: request))
        let key = try await health.registerAppAttestKey(
            attestation: body.attestation, keyID: body.keyID, nonce: body.nonce, account: account.accountId,
            device: account.deviceId, logger: request.logger)
        return Response.json(
            AttestationKeyResponse(keyId: key.keyId, createdAt: ISO8601.string(key.createdAt)), status: .created)
    }

    static func json(of request: Request) throws -> JSONValue {
        try request.requireJSONContentType()
        return try request.jsonValue(ifInvalid: "The body must be JSON")
    }

    func statistics(_ request: Request, _ account: AuthenticatedAccount) async throws -> StatisticsResponse {
        let query = try Self.rejectQuery(request, allowing: ["startDate", "endDate", "period"])
        let startDate = try query.single("startDate")
        let endDate = try query.single("endDate")
        let period = try query.single("period")
        // The sent zone is checked, and stored, before the days and period: a request wrong in both is refused for
        // its zone.
        let zone = try await health.timeZone(of: account.accountId, sent: try request.timeZoneHeader())
        let result = try await health.statistics(
            of: account.accountId, startDate: try Self.day(startDate, field: "startDate"),
            endDate: try Self.day(endDate, field: "endDate"),
            period: try InvalidInput.parse(period ?? "day", as: HealthStatistics.Period.self, field: "period"),
            in: zone)
        return StatisticsResponse(result)
    }

    /// A query's `YYYY-MM-DD` day, nil when absent.
    static func day(_ text: String?, field: String) throws(InvalidInput) -> LocalDate? {
        guard let text else { return nil }
        guard let day = LocalDate(text) else { throw InvalidInput(field, .day) }
        return day
    }

    func today(_ request: Request, _ account: AuthenticatedAccount) async throws -> TodayResponse {
        try Self.rejectQuery(request, allowing: [])
        let zone = try await health.timeZone(of: account.accountId, sent: try request.timeZoneHeader())
        let today = try await health.today(of: account.accountId, in: zone)
        return TodayResponse(today)
    }

    /// The request's query, read once; NestJS's whitelist message for a parameter the endpoint does not take.
    @discardableResult
    static func rejectQuery(_ request: Request, allowing allowed: Set<String>) throws -> QueryParameters {
        let query = QueryParameters(request.url.query)
        if let unknown = query.firstName(notIn: allowed) {
            throw HaleError.invalidRequest("property \(EchoedName.text(unknown)) should not exist")
        }
        return query
    }
}
