import Vapor

/// The account's daily totals in the formats health systems read: a FHIR R4 `Bundle` at `GET /api/v1/health/fhir`,
/// and Open mHealth data points at `GET /api/v1/health/openmhealth`; both take `startDate` and `endDate`
/// (`YYYY-MM-DD`, at most 31 days) and carry provenance for the attested days.
struct HealthInterchangeRoutes: RouteCollection {
    let healthSync: HealthSync
    let health: HealthData
    let provenance: ProvenanceStatements
    let issuer: String
    let bearerTokens: BearerTokenVerifier
    let clock: HaleClock

    func boot(routes: any RoutesBuilder) throws {
        let signedIn = SignedInRoutes(
            routes.grouped("api", "v1", "health"), authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        signedIn.get("fhir", use: fhir)
        signedIn.get("openmhealth", use: openMHealth)
    }

    func fhir(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        let bundle = FHIRBundle(try await days(of: account.accountId, request, signed: true))
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "application", subType: "fhir+json")
        return Response(status: .ok, headers: headers, body: .init(data: try JSONEncoder().encode(bundle)))
    }

    func openMHealth(_ request: Request, _ account: AuthenticatedAccount) async throws -> Response {
        // Open mHealth has no place for a signature: its data points only say which days are attested.
        Response.json(
            OpenMHealthDataPoints(try await days(of: account.accountId, request, signed: false)), status: .ok)
    }

    private func days(of account: AccountID, _ request: Request, signed: Bool) async throws -> HealthDays {
        let query = try HealthRoutes.rejectQuery(request, allowing: ["startDate", "endDate"])
        let first = try HealthProvenanceRoutes.day(try query.single("startDate"), field: "startDate")
        let last = try HealthProvenanceRoutes.day(try query.single("endDate"), field: "endDate")
        return try await HealthDays.read(
            of: account, from: first, through: last, sync: healthSync, provenance: provenance, signed: signed,
            zone: try await health.timeZone(of: account, sent: nil), issuer: issuer, now: clock.now())
    }
}
