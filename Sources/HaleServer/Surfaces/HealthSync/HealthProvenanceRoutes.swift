import Vapor

/// Signed provenance statements, per day: the account's own at `GET /api/v1/health/provenance`, and any account's
/// for the app's backend at `GET /api/v1/admin/accounts/{accountID}/health/provenance` with an admin API key. Both
/// take `startDate` and `endDate` (`YYYY-MM-DD`, at most 31 days).
struct HealthProvenanceRoutes: RouteCollection {
    let provenance: ProvenanceStatements
    let bearerTokens: BearerTokenVerifier
    let adminKeys: AdminAPIKeys

    func boot(routes: any RoutesBuilder) throws {
        let signedIn = SignedInRoutes(
            routes.grouped("api", "v1", "health"), authenticatedBy: BearerAuthMiddleware(verifier: bearerTokens))
        signedIn.get("provenance", use: own)
        routes.grouped("api", "v1", "admin", "accounts").grouped(AdminKeyMiddleware(keys: adminKeys))
            .get(":accountID", "health", "provenance", use: ofAccount)
    }

    func own(_ request: Request, _ account: AuthenticatedAccount) async throws -> ProvenanceResponse {
        try await statements(of: account.accountId, request)
    }

    func ofAccount(_ request: Request) async throws -> ProvenanceResponse {
        guard let text = request.parameters.get("accountID"), let account = AccountID(text) else {
            throw HaleError(.resourceNotFound, .notFound, message: "No such account.")
        }
        return try await statements(of: account, request)
    }

    private func statements(of account: AccountID, _ request: Request) async throws -> ProvenanceResponse {
        let query = try HealthRoutes.rejectQuery(request, allowing: ["startDate", "endDate"])
        let first = try Self.day(try query.single("startDate"), field: "startDate")
        let last = try Self.day(try query.single("endDate"), field: "endDate")
        let signed = try await provenance.statements(of: account, from: first, through: last)
        return ProvenanceResponse(
            statements: signed.map { .init(date: $0.day.description, statement: $0.statement) })
    }

    /// A day the request must name: `HealthRoutes.day`'s parsing, and absent refused in its words.
    static func day(_ text: String?, field: String) throws(InvalidInput) -> LocalDate {
        guard let day = try HealthRoutes.day(text, field: field) else { throw InvalidInput(field, .day) }
        return day
    }
}

/// The statements of a range of days: only days with attested data have one.
struct ProvenanceResponse: Content {
    var success = true
    let statements: [Statement]

    /// One day's statement: a compact JWS of type `hale-provenance+jwt`.
    struct Statement: Content {
        let date: String
        let statement: String
    }
}
